//! The fact sheet (pixel-simulate.md §9.4): the exact identifiers of an
//! imaged text (paths, ids, hashes, versions, numbers, flags, URLs) in one
//! text line after its images, so that a model can quote them instead of
//! reading them off the pixels. Its length enters the history transcript
//! and its presence one Gemini count.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::Regex;

use super::strings::{FACT_HEAD, FACT_HEAD_COUNTS};

/// Only this much of the source is scanned.
const SCAN_BYTES: usize = 262_144;
/// Chunks outside these byte lengths are skipped.
const CHUNK_MIN: usize = 3;
const CHUNK_MAX: usize = 512;
/// Tokens outside these byte lengths are dropped.
const TOKEN_MIN: usize = 3;
const TOKEN_MAX: usize = 120;
/// The scan stops after a chunk once this many distinct tokens are seen.
const DISTINCT_MAX: usize = 2048;
/// At most this many tokens in a sheet, and this many URLs among them.
const SHEET_MAX: usize = 64;
const URL_MAX: usize = 8;

/// The token patterns, in the order they are tried, and whether a token
/// must hold a decimal digit.
static PATTERNS: LazyLock<Vec<(Regex, bool)>> = LazyLock::new(|| {
    [
        (r#"\bhttps?://[^\s)"'<>]+"#, false),
        (
            r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b",
            false,
        ),
        (r"(?:[\w@~+-]+)?(?:/[\w.@+-]+)+\.[A-Za-z]\w{0,8}\b", false),
        (r"/[\w.@+-]+(?:/[\w.@+-]+)+/?", false),
        (r"\b[0-9a-f]{7,40}\b", true),
        (r"\bv?\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?\b", false),
        (r"(?:^|[^\w-])(--?[A-Za-z][\w-]+)", false),
        (r"\b\d[\d,_]{3,}\b", false),
        (r"\b\d+\.\d+\b", false),
        (r"\b[A-Z][A-Z0-9]{2,}(?:_[A-Z0-9]+)+\b", false),
        (r"\b[A-Z][A-Z0-9]+(?:-[A-Z0-9]+)+\b", true),
    ]
    .into_iter()
    .map(|(p, d)| (crate::go::regexp::compile(p), d))
    .collect()
});

/// Tokens that sort first (ids, hashes, constants, tickets, flags,
/// numbers).
static TIER0: LazyLock<Vec<(Regex, bool)>> = LazyLock::new(|| {
    [
        (r"^[0-9a-f]{7,40}$", true),
        (
            r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
            false,
        ),
        (r"^[A-Z][A-Z0-9]{2,}(?:_[A-Z0-9]+)+$", false),
        (r"^[A-Z][A-Z0-9]+(?:-[A-Z0-9]+)+$", true),
        (r"^--?[A-Za-z][\w-]+$", false),
        (r"^\d[\d,_]*$", false),
        (r"^\d+\.\d+$", false),
    ]
    .into_iter()
    .map(|(p, d)| (crate::go::regexp::compile(p), d))
    .collect()
});

fn has_digit(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_digit())
}

/// 0 for ids and numbers, 2 for URLs, 1 for everything else.
fn tier(t: &str) -> u8 {
    if TIER0
        .iter()
        .any(|(re, d)| re.is_match(t) && (!d || has_digit(t)))
    {
        0
    } else if t.starts_with("http://") || t.starts_with("https://") {
        2
    } else {
        1
    }
}

/// The fact sheet of `src`, or `None` when it holds no identifier.
pub fn fact_sheet(src: &str) -> Option<String> {
    let counts = scan(src);
    if counts.is_empty() {
        return None;
    }
    let mut by_len: Vec<&str> = counts.keys().map(String::as_str).collect();
    by_len.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    let mut kept: Vec<&str> = Vec::new();
    for t in by_len {
        if !kept.iter().any(|k| k.contains(t)) {
            kept.push(t);
        }
    }
    kept.sort_by(|a, b| {
        tier(a)
            .cmp(&tier(b))
            .then(b.len().cmp(&a.len()))
            .then(a.cmp(b))
    });
    let mut sheet: Vec<&str> = Vec::new();
    let mut urls = 0;
    for t in kept {
        if sheet.len() == SHEET_MAX {
            break;
        }
        if tier(t) == 2 {
            if urls == URL_MAX {
                continue;
            }
            urls += 1;
        }
        sheet.push(t);
    }
    let repeated = sheet.iter().any(|t| counts[*t] >= 2);
    let mut out = String::from(if repeated {
        FACT_HEAD_COUNTS
    } else {
        FACT_HEAD
    });
    for (i, t) in sheet.iter().enumerate() {
        if i > 0 {
            out.push_str(" \u{b7} ");
        }
        out.push_str(t);
        let n = counts[*t];
        if n >= 2 {
            out.push_str(&format!(" \u{d7}{n}"));
        }
    }
    out.push(']');
    Some(out)
}

/// Every identifier token of `src` with its number of occurrences.
///
/// The reference matches each pattern in each whitespace-separated chunk.
/// No pattern can match across whitespace, so each pattern runs once over
/// the whole text instead (a chunk boundary is a `\b` and a `[^\w-]`
/// there as well), and the matches are then taken chunk by chunk, in
/// pattern order, exactly as the per-chunk scan finds them.
fn scan(src: &str) -> BTreeMap<String, usize> {
    let mut end = src.len().min(SCAN_BYTES);
    while !src.is_char_boundary(end) {
        end -= 1;
    }
    let text = &src[..end];
    let is_s = |b: u8| matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ');
    // Chunk starts and ends, in order.
    let mut chunks: Vec<(usize, usize)> = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        while i < bytes.len() && is_s(bytes[i]) {
            i += 1;
        }
        let start = i;
        while i < bytes.len() && !is_s(bytes[i]) {
            i += 1;
        }
        if i > start {
            chunks.push((start, i));
        }
    }
    let chunk_of = |pos: usize| chunks.partition_point(|c| c.1 <= pos);
    // (chunk, pattern, token start, token end) of every kept match.
    let mut found: Vec<(u32, u8, u32, u32)> = Vec::new();
    for (p, (re, need_digit)) in PATTERNS.iter().enumerate() {
        for caps in re.captures_iter(text) {
            let Some(m) = caps.get(1).or_else(|| caps.get(0)) else {
                continue;
            };
            let c = chunk_of(m.start());
            let Some(&(cs, ce)) = chunks.get(c) else {
                continue;
            };
            if ce - cs < CHUNK_MIN || ce - cs > CHUNK_MAX {
                continue;
            }
            let token = m.as_str().trim_end_matches(['.', ',', ';', ':', '!', '?']);
            if token.len() < TOKEN_MIN || token.len() > TOKEN_MAX {
                continue;
            }
            if *need_digit && !has_digit(token) {
                continue;
            }
            found.push((
                c as u32,
                p as u8,
                m.start() as u32,
                (m.start() + token.len()) as u32,
            ));
        }
    }
    // Stable: within a chunk, pattern order, then match order.
    found.sort_by_key(|f| (f.0, f.1));
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut at = 0;
    while at < found.len() {
        let chunk = found[at].0;
        let mut seen: Vec<(u32, &str)> = Vec::new();
        while at < found.len() && found[at].0 == chunk {
            let (_, _, s, e) = found[at];
            let token = &text[s as usize..e as usize];
            if !seen.contains(&(s, token)) {
                seen.push((s, token));
                *counts.entry(token.to_string()).or_default() += 1;
            }
            at += 1;
        }
        if counts.len() >= DISTINCT_MAX {
            break;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn none_without_identifiers() {
        assert_eq!(fact_sheet("just some words here"), None);
        assert_eq!(fact_sheet(""), None);
    }

    #[test]
    fn sheet_orders_tiers_and_counts() {
        let s = fact_sheet(
            "see https://example.com/a and /usr/lib/x.so v1.2.3 at 1a2b3c4d MAX_RETRY_COUNT \
             MAX_RETRY_COUNT --verbose",
        )
        .unwrap();
        assert!(s.starts_with(FACT_HEAD_COUNTS), "{s}");
        assert!(s.ends_with(']'));
        let body = &s[FACT_HEAD_COUNTS.len()..s.len() - 1];
        let tokens: Vec<&str> = body.split(" \u{b7} ").collect();
        assert_eq!(
            tokens,
            [
                "MAX_RETRY_COUNT \u{d7}2",
                "--verbose",
                "1a2b3c4d",
                "/usr/lib/x.so",
                "v1.2.3",
                "https://example.com/a"
            ]
        );
    }

    /// The chunk-by-chunk scan as the reference runs it.
    fn scan_per_chunk(src: &str) -> BTreeMap<String, usize> {
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        let is_s = |c: char| matches!(c, '\t' | '\n' | '\x0c' | '\r' | ' ');
        for chunk in src.split(is_s) {
            if chunk.len() < CHUNK_MIN || chunk.len() > CHUNK_MAX {
                continue;
            }
            let mut seen: Vec<(usize, &str)> = Vec::new();
            for (re, need_digit) in PATTERNS.iter() {
                for caps in re.captures_iter(chunk) {
                    let m = caps.get(1).or_else(|| caps.get(0)).unwrap();
                    let token = m.as_str().trim_end_matches(['.', ',', ';', ':', '!', '?']);
                    if token.len() < TOKEN_MIN || token.len() > TOKEN_MAX {
                        continue;
                    }
                    if *need_digit && !has_digit(token) {
                        continue;
                    }
                    if !seen.contains(&(m.start(), token)) {
                        seen.push((m.start(), token));
                        *counts.entry(token.to_string()).or_default() += 1;
                    }
                }
            }
            if counts.len() >= DISTINCT_MAX {
                break;
            }
        }
        counts
    }

    proptest::proptest! {
        /// One pass per pattern finds what the chunk-by-chunk scan finds.
        #[test]
        fn whole_text_scan_equals_chunk_scan(words in proptest::collection::vec(
            proptest::sample::select(vec![
                "https://x.io/a?b=1", "(http://y.dev)", "/usr/lib/x.so.6", "a/b/c", "./run.sh:",
                "1a2b3c4d", "deadbeefcafe", "v1.2.3-rc.1", "--flag", "-x", "a--b", "1,234,567",
                "3.14", "MAX_RETRY", "JIRA-123", "ABC-DEF", "0fa1b2c3-aaaa-bbbb-cccc-0123456789ab",
                "word", "it.", "é/ü.tx", " ", "\n", "\t", "x", "ab",
            ]),
            0..60,
        )) {
            let text = words.concat();
            proptest::prop_assert_eq!(scan(&text), scan_per_chunk(&text));
        }
    }

    #[test]
    fn substrings_of_kept_tokens_drop() {
        let s = fact_sheet("/srv/app/main.go").unwrap();
        assert_eq!(&s[FACT_HEAD.len()..], "/srv/app/main.go]");
    }
}
