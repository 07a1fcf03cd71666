//! Deterministic BM25 (spec/relevance.md): k1 = 1.5, b = 0.75, query terms
//! summed in ascending byte order so equal inputs give equal bits.

use std::borrow::Cow;
use std::collections::BTreeSet;

use rustc_hash::FxHashMap as HashMap;

use crate::go::unicode::{is_decimal, is_letter, simple_lower};

const STOPWORDS: [&str; 29] = [
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "how", "in", "is", "it", "of",
    "on", "or", "that", "the", "this", "to", "was", "what", "when", "where", "which", "who", "why",
    "with",
];

/// Candidates must score at least this fraction of the best score.
pub const RELEVANCE_RATIO: f64 = 0.30;

/// Tokens of a text (relevance.md §1).
pub fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    each_token(text, &mut String::new(), |t| out.push(t.to_string()));
    out
}

/// Calls `f` with each token of `text` in order, built in `cur`.
fn each_token(text: &str, cur: &mut String, mut f: impl FnMut(&str)) {
    cur.clear();
    let mut flush = |cur: &mut String| {
        if cur.len() >= 2 && !STOPWORDS.contains(&cur.as_str()) {
            f(cur);
        }
        cur.clear();
    };
    for c in text.chars() {
        let c = simple_lower(c);
        if c == '_' || is_letter(c) || is_decimal(c) {
            cur.push(c);
        } else {
            flush(cur);
        }
    }
    flush(cur);
}

/// At most this many distinct query terms are scored (the first ones
/// the query names): a pasted document as a query costs no more than a
/// page of terms.
pub const MAX_QUERY_TERMS: usize = 1024;

/// The distinct terms of a query, in ascending byte order: the first
/// [`MAX_QUERY_TERMS`] distinct tokens it holds.
pub fn query_terms(query: &str) -> Vec<String> {
    let mut distinct: BTreeSet<String> = BTreeSet::new();
    for t in tokenize(query) {
        if distinct.len() == MAX_QUERY_TERMS {
            break;
        }
        distinct.insert(t);
    }
    distinct.into_iter().collect()
}

/// BM25 score of every document against the query (relevance.md §2).
pub fn scores<S: AsRef<str> + Sync>(query: &str, docs: &[S]) -> Vec<f64> {
    scores_of(query, docs.len(), |i| docs[i].as_ref().into())
}

/// [`scores`] of `n` documents produced one at a time by `doc`: only each
/// document's length and query-term counts are kept, not its text or
/// tokens (a 64 MB table's rows would take several times the table).
/// Documents are tokenized on every core; the sums run in document order.
pub fn scores_of<'d>(
    query: &str,
    n: usize,
    doc: impl Fn(usize) -> Cow<'d, str> + Sync,
) -> Vec<f64> {
    let terms = query_terms(query);
    let mut out = vec![0.0; n];
    if terms.is_empty() || n == 0 {
        return out;
    }
    let index: HashMap<&str, usize> = terms
        .iter()
        .enumerate()
        .map(|(i, t)| (t.as_str(), i))
        .collect();
    // Per chunk of documents: each one's token count, and (document,
    // term, count) for every query term a document holds.
    let counted = crate::par::map(crate::par::ranges(n, 2048), |chunk| {
        let mut lens = Vec::with_capacity(chunk.len());
        let mut tfs: Vec<(u32, u32, u32)> = Vec::new();
        let mut counts = vec![0u32; terms.len()];
        // The terms this document holds: the work per document follows
        // its tokens, not the number of query terms.
        let mut seen: Vec<u32> = Vec::new();
        let mut cur = String::new();
        for i in chunk {
            let mut len = 0usize;
            each_token(&doc(i), &mut cur, |w| {
                len += 1;
                if let Some(&k) = index.get(w) {
                    if counts[k] == 0 {
                        seen.push(k as u32);
                    }
                    counts[k] += 1;
                }
            });
            seen.sort_unstable();
            for &k in &seen {
                tfs.push((i as u32, k, counts[k as usize]));
                counts[k as usize] = 0;
            }
            seen.clear();
            lens.push(len);
        }
        (lens, tfs)
    });
    let mut lens = Vec::with_capacity(n);
    let mut tfs = Vec::new();
    for (l, t) in counted {
        lens.extend(l);
        tfs.extend(t);
    }
    let mut df = vec![0usize; terms.len()];
    for &(_, k, _) in &tfs {
        df[k as usize] += 1;
    }
    let total: usize = lens.iter().sum();
    let avgdl = if total > 0 {
        total as f64 / n as f64
    } else {
        1.0
    };
    // Per document, terms in ascending byte order (tfs holds them so).
    for &(i, k, f) in &tfs {
        let i = i as usize;
        let d = df[k as usize] as f64;
        let idf = (1.0 + ((n as f64 - d) + 0.5) / (d + 0.5)).ln();
        let norm = 0.25 + (0.75 * lens[i] as f64) / avgdl;
        let tf = f as f64;
        let denom = tf + 1.5 * norm;
        out[i] += (idf * (tf * 2.5)) / denom;
    }
    out
}

/// Candidates not yet kept, best first (ties by index), relevance.md §3.
pub fn candidates(scores: &[f64], keep: &[bool]) -> Vec<usize> {
    let max = scores.iter().cloned().fold(0.0f64, f64::max);
    if max <= 0.0 {
        return Vec::new();
    }
    let mut c: Vec<usize> = (0..scores.len())
        .filter(|&i| !keep[i] && scores[i] / max >= RELEVANCE_RATIO)
        .collect();
    c.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    c
}

#[cfg(test)]
mod tests {

    #[test]
    fn query_terms_are_capped_first_come() {
        let query: String = (0..5000).map(|i| format!("term{i:05} ")).collect();
        let terms = query_terms(&query);
        assert_eq!(terms.len(), MAX_QUERY_TERMS);
        assert!(terms.contains(&"term00000".to_string()));
        assert!(terms.contains(&"term01023".to_string()));
        assert!(!terms.contains(&"term01024".to_string()));
        // Repeats do not use up the cap.
        let repeated = format!("{} {}", "alpha ".repeat(3000), "omega");
        assert_eq!(query_terms(&repeated), vec!["alpha", "omega"]);
    }

    #[test]
    fn many_terms_score_like_few() {
        let docs = ["alpha beta", "gamma", "beta beta delta"];
        let noise: String = (0..3000).map(|i| format!("zz{i} ")).collect();
        let few = scores("beta delta", &docs);
        let many = scores(&format!("beta delta {noise}"), &docs);
        assert_eq!(few, many);
    }

    use super::*;

    /// relevance.md §2 as written: every document's tokens held at once.
    fn reference(query: &str, docs: &[String]) -> Vec<f64> {
        let terms: BTreeSet<String> = tokenize(query).into_iter().collect();
        let toks: Vec<Vec<String>> = docs.iter().map(|d| tokenize(d)).collect();
        let n = docs.len() as f64;
        let total: usize = toks.iter().map(|t| t.len()).sum();
        let avgdl = total as f64 / n;
        toks.iter()
            .map(|t| {
                let mut score = 0.0;
                for term in &terms {
                    let f = t.iter().filter(|w| *w == term).count();
                    if f == 0 {
                        continue;
                    }
                    let d = toks.iter().filter(|u| u.contains(term)).count() as f64;
                    let idf = (1.0 + ((n - d) + 0.5) / (d + 0.5)).ln();
                    let norm = 0.25 + (0.75 * t.len() as f64) / avgdl;
                    let tf = f as f64;
                    score += (idf * (tf * 2.5)) / (tf + 1.5 * norm);
                }
                score
            })
            .collect()
    }

    #[test]
    fn chunked_scores_equal_the_definition() {
        let words = [
            "db", "host", "down", "up", "the", "x_y", "Ünï", "42", "db-7", "ok",
        ];
        let docs: Vec<String> = (0..6000usize)
            .map(|i| {
                (0..1 + i % 7)
                    .map(|j| words[(i * 31 + j * 17) % words.len()])
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        for q in ["host db down", "ünï 42", "the", "x_y ok up"] {
            let got = scores(q, &docs);
            let want = reference(q, &docs);
            assert!(
                got.iter()
                    .zip(&want)
                    .all(|(a, b)| a.to_bits() == b.to_bits()),
                "{q}"
            );
        }
    }

    #[test]
    fn worked_example() {
        let docs = [
            "host db-7 down",
            "host db-8 up",
            "the db is fine",
            "Ünïcode é x_y 42",
        ];
        let s = scores("Which host is DB-7?", &docs);
        assert!((s[0] - 1.049822).abs() < 1e-6);
        assert_eq!(s[0], s[1]);
        assert!((s[2] - 0.419618).abs() < 1e-6);
        assert_eq!(s[3], 0.0);
        assert_eq!(candidates(&s, &[false; 4]), vec![0, 1, 2]);
        assert_eq!(
            tokenize("Ünïcode é x_y 42"),
            vec!["ünïcode", "é", "x_y", "42"]
        );
    }
}
