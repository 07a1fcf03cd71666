//! Byte regexes built for a process that searches a few short haystacks:
//! the same matches as `regex::bytes::Regex` and `regex::bytes::RegexSet`
//! (the same `regex-automata` meta engine, the same syntax and match
//! semantics), without the parts of the build that pay off only over
//! long searches.
//!
//! Every call of the tool is a new process and compiles its patterns
//! again, mostly to test lines of a sample. `regex`'s default build also
//! makes a full DFA for small patterns and extracts literals for
//! prefilters (prefix, suffix and inner literal scans): together about
//! half of what building a pattern costs, spent again on every payload,
//! while a line of a hundred bytes is searched as fast by the lazy DFA
//! alone. Which engine answers never changes the answer: every engine of
//! the meta regex reports the leftmost-first match (a set: every pattern
//! that matches), so these give the bytes `regex` gives.

use regex_automata::meta;
use regex_automata::nfa::thompson::WhichCaptures;
use regex_automata::util::syntax;
use regex_automata::{Input, MatchKind, PatternSet};

/// The meta configuration: `regex::bytes`'s own (limits, match kind,
/// empty matches that may split a UTF-8 character), less the full DFA,
/// the one-pass DFA (it serves capture groups only) and literal
/// prefilters.
fn config(kind: MatchKind, captures: WhichCaptures) -> meta::Config {
    meta::Config::new()
        .nfa_size_limit(Some(10 * (1 << 20)))
        .hybrid_cache_capacity(2 * (1 << 20))
        .match_kind(kind)
        .utf8_empty(false)
        .which_captures(captures)
        .dfa(false)
        .onepass(false)
        .auto_prefilter(false)
}

/// `regex::bytes`'s syntax: invalid UTF-8 may match under `(?-u)`.
fn syntax() -> syntax::Config {
    syntax::Config::new().utf8(false)
}

/// A byte regex: `regex::bytes::Regex`'s matches (module doc).
#[derive(Debug)]
pub(crate) struct Regex(meta::Regex);

impl Regex {
    pub fn new(pattern: &str) -> Result<Regex, Box<meta::BuildError>> {
        meta::Builder::new()
            .configure(config(MatchKind::LeftmostFirst, WhichCaptures::Implicit))
            .syntax(syntax())
            .build(pattern)
            .map(Regex)
            .map_err(Box::new)
    }

    pub fn is_match(&self, h: &[u8]) -> bool {
        self.0.is_match(h)
    }

    /// The leftmost-first match, as a span.
    pub fn find(&self, h: &[u8]) -> Option<std::ops::Range<usize>> {
        self.0.find(h).map(|m| m.range())
    }

    /// The successive non-overlapping matches, as spans.
    pub fn find_iter<'a>(
        &'a self,
        h: &'a [u8],
    ) -> impl Iterator<Item = std::ops::Range<usize>> + 'a {
        self.0.find_iter(h).map(|m| m.range())
    }
}

/// A set of byte patterns: `regex::bytes::RegexSet`'s answers.
#[derive(Debug)]
pub(crate) struct RegexSet(meta::Regex);

impl RegexSet {
    pub fn new<I, S>(patterns: I) -> Result<RegexSet, Box<meta::BuildError>>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let patterns: Vec<S> = patterns.into_iter().collect();
        meta::Builder::new()
            .configure(config(MatchKind::All, WhichCaptures::None))
            .syntax(syntax())
            .build_many(&patterns)
            .map(RegexSet)
            .map_err(Box::new)
    }

    /// The patterns that match somewhere in `h`, in index order.
    pub fn matches(&self, h: &[u8]) -> impl Iterator<Item = usize> {
        let mut set = PatternSet::new(self.0.pattern_len());
        self.0.which_overlapping_matches(&Input::new(h), &mut set);
        set.iter()
            .map(|p| p.as_usize())
            .collect::<Vec<_>>()
            .into_iter()
    }

    /// The first pattern, by index, that matches somewhere in `h`.
    pub fn first(&self, h: &[u8]) -> Option<usize> {
        let mut set = PatternSet::new(self.0.pattern_len());
        self.0.which_overlapping_matches(&Input::new(h), &mut set);
        set.iter().next().map(|p| p.as_usize())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATTERNS: &[&str] = &[
        r"(?-u)\b\d{2}:\d{2}:\d{2}(?:\.\d+)?\b",
        r"(?i)(?-u:\b)err(or)?s?(?-u:\b)",
        r"(?-u)(^|[^\w.,])0+[ \t]+$",
        r"\s+\w+(\.\w+)+\(.*\)$",
        r"(?-u)^\[\d+/\d+\] \S|^yarn (install|run|add) v",
        r"^\s*(✓|✔|✕|✗|×|√) ",
        r"",
        r"a*",
    ];

    const TEXTS: &[&[u8]] = &[
        b"at 10:00:01.5 ERRORS x",
        b"0  ",
        b"a.0 ",
        b"  at com.x.Y(Z.java:1)",
        b"[1/4] Resolving packages...",
        b"yarn install v1.22",
        "  \u{2713} works".as_bytes(),
        b"10:00:01",
        b"",
        b"aaa b aa",
        "\u{e9}rror 10:00:01 err".as_bytes(),
        b"x\xff\xfe 10:00:00 error\xff",
    ];

    /// The same spans as `regex::bytes::Regex`, and the same set answers
    /// as `regex::bytes::RegexSet`.
    #[test]
    fn answers_as_regex_does() {
        for p in PATTERNS {
            let ours = Regex::new(p).unwrap();
            let theirs = regex::bytes::Regex::new(p).unwrap();
            for t in TEXTS {
                assert_eq!(ours.is_match(t), theirs.is_match(t), "{p} {t:?}");
                assert_eq!(ours.find(t), theirs.find(t).map(|m| m.range()), "{p} {t:?}");
                let a: Vec<_> = ours.find_iter(t).collect();
                let b: Vec<_> = theirs.find_iter(t).map(|m| m.range()).collect();
                assert_eq!(a, b, "{p} {t:?}");
            }
        }
        let ours = RegexSet::new(PATTERNS).unwrap();
        let theirs = regex::bytes::RegexSet::new(PATTERNS).unwrap();
        for t in TEXTS {
            let a: Vec<_> = ours.matches(t).collect();
            let b: Vec<_> = theirs.matches(t).iter().collect();
            assert_eq!(a, b, "{t:?}");
            assert_eq!(ours.first(t), b.first().copied(), "{t:?}");
        }
    }

    /// A pattern `regex::bytes` refuses is refused.
    #[test]
    fn refuses_what_regex_refuses() {
        assert!(Regex::new(r"(").is_err());
        assert!(Regex::new(r"(?-u)\xff").is_ok());
    }

    /// Each pattern built both ways, once.
    static BOTH: std::sync::LazyLock<Vec<(Regex, regex::bytes::Regex)>> =
        std::sync::LazyLock::new(|| {
            PATTERNS
                .iter()
                .map(|p| (Regex::new(p).unwrap(), regex::bytes::Regex::new(p).unwrap()))
                .collect()
        });

    proptest::proptest! {
        /// Any bytes: the same spans as `regex::bytes`.
        #[test]
        fn any_bytes_match_alike(t in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40)) {
            for (ours, theirs) in BOTH.iter() {
                let a: Vec<_> = ours.find_iter(&t).collect();
                let b: Vec<_> = theirs.find_iter(&t).map(|m| m.range()).collect();
                proptest::prop_assert_eq!(a, b);
            }
        }
    }
}
