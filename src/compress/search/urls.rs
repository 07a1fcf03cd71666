//! The lean view of a list of URLs (links pulled out of READMEs, docs,
//! source): a URL is never a `path:N:` record. Lossless work first: each
//! host (with its scheme) written once over its links' paths, in order of
//! first appearance; a repeated link once with `×N`. Then badge and CI
//! image links go (one marker counts them) before any other link is
//! hidden; only a view still over [`CAPPED_BYTES`] keeps the most links
//! per host that fit, and never marks a single link.

use std::sync::LazyLock;

use regex::Regex;

use crate::compress::shared::lines::{Lines, Trace};
use crate::compress::Compressed;
use crate::detect::lean::scheme_len;

/// Larger inputs keep the per-host sampler (memory).
const MAX_INPUT: usize = 4 << 20;
/// A grouped view up to this size is written whole.
const CAPPED_BYTES: usize = 8 * 1024;
/// Links a capped host keeps at least.
const MIN_CAP: usize = 2;
/// URLs a list has at least.
const MIN_URLS: usize = 8;

/// A badge or CI status image: what a README shows, not a link to follow.
static BADGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^[a-z][a-z0-9+.-]*://(img\.shields\.io|badgen\.net|badge\.fury\.io|[^/]*/.*(badge|/status)[^/]*\.(svg|png)|[^/]*/.*\.svg(\?|$)|[^/]*/.*/badges?/|[^/]*/.*badge\.svg)",
    )
    .expect("badge")
});

/// A host's links: each distinct path after `scheme://host`, with its count.
struct Host<'a> {
    name: &'a str,
    paths: Vec<(&'a str, usize)>,
}

fn render(hosts: &[Host<'_>], cap: Option<usize>, badges: usize) -> (Vec<String>, usize) {
    let mut out = Vec::new();
    let mut dropped = 0;
    let times = |n: usize| {
        if n > 1 {
            format!(" \u{d7}{n}")
        } else {
            String::new()
        }
    };
    for h in hosts {
        if let [(p, n)] = h.paths.as_slice() {
            out.push(format!("{}{p}{}", h.name, times(*n)));
            continue;
        }
        out.push(h.name.to_string());
        let shown = match cap {
            Some(c) if h.paths.len() > c + 1 => c,
            _ => h.paths.len(),
        };
        for (p, n) in &h.paths[..shown] {
            // The host's own link is written whole.
            let link = if p.is_empty() { h.name } else { p };
            out.push(format!("{link}{}", times(*n)));
        }
        let hidden: usize = h.paths[shown..].iter().map(|x| x.1).sum();
        if hidden > 0 {
            dropped += hidden;
            out.push(format!(
                "\u{2026} {hidden} more links under {} elided (caveman) \u{2026}",
                h.name
            ));
        }
    }
    if badges > 0 {
        dropped += badges;
        out.push(format!(
            "\u{2026} {badges} badge, CI and .svg image links elided (caveman) \u{2026}"
        ));
    }
    (out, dropped)
}

fn size(lines: &[String]) -> usize {
    lines.iter().map(|l| l.len() + 1).sum()
}

/// The grouped view of a URL list, or `None` when `text` is not one
/// (every non-blank line a URL without spaces).
pub(super) fn grouped(text: &str) -> Option<Compressed> {
    if text.len() > MAX_INPUT {
        return None;
    }
    let doc = Lines::split(text);
    let mut hosts: Vec<Host<'_>> = Vec::new();
    let mut host_of: rustc_hash::FxHashMap<&str, usize> = Default::default();
    let mut link_of: rustc_hash::FxHashMap<&str, (usize, usize)> = Default::default();
    let mut badges = 0;
    let mut urls = 0;
    for raw in doc.iter() {
        let l = raw.trim();
        if l.is_empty() {
            continue;
        }
        let s = scheme_len(l)?;
        if l.contains(char::is_whitespace) {
            return None;
        }
        urls += 1;
        if BADGE.is_match(l) {
            badges += 1;
            continue;
        }
        if let Some(&(h, k)) = link_of.get(l) {
            hosts[h].paths[k].1 += 1;
            continue;
        }
        let end = l[s..].find(['/', '?', '#']).map_or(l.len(), |k| s + k);
        let (name, path) = l.split_at(end);
        let h = *host_of.entry(name).or_insert_with(|| {
            hosts.push(Host {
                name,
                paths: Vec::new(),
            });
            hosts.len() - 1
        });
        link_of.insert(l, (h, hosts[h].paths.len()));
        hosts[h].paths.push((path, 1));
    }
    if urls < MIN_URLS {
        return None;
    }
    let (mut lines, mut dropped) = render(&hosts, None, badges);
    if size(&lines) > CAPPED_BYTES {
        let most = hosts.iter().map(|h| h.paths.len()).max().unwrap_or(0);
        let (mut lo, mut hi) = (MIN_CAP, most.max(MIN_CAP));
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if size(&render(&hosts, Some(mid), badges).0) <= CAPPED_BYTES {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        (lines, dropped) = render(&hosts, Some(lo), badges);
    }
    let mut bytes = lines.join("\n").into_bytes();
    if doc.trailing_lf {
        bytes.push(b'\n');
    }
    let mut trace = Trace::default();
    trace.add("links grouped by host", urls - dropped);
    trace.dropped = dropped;
    Some(Compressed::traced(bytes, trace))
}
