//! Deterministic BM25 (spec/relevance.md): k1 = 1.5, b = 0.75, query terms
//! summed in ascending byte order so equal inputs give equal bits.

use std::collections::BTreeSet;

use rustc_hash::FxHashMap as HashMap;

use super::kinds::{is_decimal, is_letter, simple_lower};

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
    let mut cur = String::new();
    let flush = |cur: &mut String, out: &mut Vec<String>| {
        if cur.len() >= 2 && !STOPWORDS.contains(&cur.as_str()) {
            out.push(std::mem::take(cur));
        } else {
            cur.clear();
        }
    };
    for c in text.chars() {
        let c = simple_lower(c);
        if c == '_' || is_letter(c) || is_decimal(c) {
            cur.push(c);
        } else {
            flush(&mut cur, &mut out);
        }
    }
    flush(&mut cur, &mut out);
    out
}

/// BM25 score of every document against the query (relevance.md §2).
pub fn scores<S: AsRef<str>>(query: &str, docs: &[S]) -> Vec<f64> {
    let terms: BTreeSet<String> = tokenize(query).into_iter().collect();
    let n = docs.len();
    let mut out = vec![0.0; n];
    if terms.is_empty() || n == 0 {
        return out;
    }
    let mut tfs: Vec<HashMap<&str, usize>> = Vec::with_capacity(n);
    let mut lens = Vec::with_capacity(n);
    let mut df: HashMap<&str, usize> = HashMap::default();
    let mut total = 0usize;
    let toks: Vec<Vec<String>> = docs.iter().map(|d| tokenize(d.as_ref())).collect();
    for t in &toks {
        let mut tf: HashMap<&str, usize> = HashMap::default();
        for w in t {
            if terms.contains(w.as_str()) {
                *tf.entry(w.as_str()).or_default() += 1;
            }
        }
        for k in tf.keys() {
            *df.entry(k).or_default() += 1;
        }
        lens.push(t.len());
        total += t.len();
        tfs.push(tf);
    }
    let avgdl = if total > 0 {
        total as f64 / n as f64
    } else {
        1.0
    };
    for (i, tf) in tfs.iter().enumerate() {
        let mut score = 0.0;
        for t in &terms {
            let Some(&f) = tf.get(t.as_str()) else {
                continue;
            };
            let d = df[t.as_str()] as f64;
            let idf = (1.0 + ((n as f64 - d) + 0.5) / (d + 0.5)).ln();
            let norm = 0.25 + (0.75 * lens[i] as f64) / avgdl;
            let tf = f as f64;
            let denom = tf + 1.5 * norm;
            score += (idf * (tf * 2.5)) / denom;
        }
        out[i] = score;
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
    use super::*;

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
