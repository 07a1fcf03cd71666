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
//! that matches), so these give the bytes `regex` gives. A set is only
//! asked which patterns match, so it keeps only the meta regex's forward
//! lazy DFA ([`RegexSet`]).

use std::sync::OnceLock;

use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::util::pool::Pool;
use regex_automata::util::syntax;
use regex_automata::{hybrid, meta};
use regex_automata::{Anchored, Input, MatchKind, PatternSet};
use regex_syntax::hir::{Hir, Look};

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

    /// `regex::Regex`'s matches on the bytes of a `str`: its syntax (a
    /// pattern matches valid UTF-8 only) and its empty matches (never
    /// inside a character), built as [`Regex::new`] builds.
    pub fn text(pattern: &str) -> Result<Regex, Box<meta::BuildError>> {
        meta::Builder::new()
            .configure(config(MatchKind::LeftmostFirst, WhichCaptures::Implicit).utf8_empty(true))
            .syntax(syntax::Config::new())
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

    /// The leftmost-first match that starts at `at` (the bytes before it
    /// still seen by `\b`), as a span.
    pub fn find_at_start(&self, h: &[u8], at: usize) -> Option<std::ops::Range<usize>> {
        self.0
            .find(Input::new(h).range(at..).anchored(Anchored::Yes))
            .map(|m| m.range())
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
///
/// A set is asked which patterns match, never where, so it is searched
/// by forward lazy DFAs alone: no reverse automaton and no capture
/// engines are built (the meta regex builds both for every set). The
/// patterns anchored at the start (every branch begins with `^`) are one
/// DFA searched anchored, the others a second one: in a single DFA every
/// state pairs the progress of the anchored patterns with that of the
/// unanchored ones, and a varied text (source code against the language
/// votes) makes the lazy DFA build most of those pairs, line after line.
/// Apart, each DFA stays small. A pattern anchored at the start matches
/// only at the start, so searching it anchored gives the same answer.
/// Should a lazy DFA give up (it may, as the meta regex's may, on a text
/// that makes it rebuild its cache again and again), the meta set built
/// then answers.
pub(crate) struct RegexSet {
    patterns: Vec<String>,
    parts: Vec<Part>,
    /// The meta set, built only when a lazy DFA gives up.
    fallback: OnceLock<meta::Regex>,
}

/// The search state of one lazy DFA, one per thread that searches.
type CachePool = Pool<
    hybrid::dfa::Cache,
    Box<
        dyn Fn() -> hybrid::dfa::Cache
            + Send
            + Sync
            + std::panic::RefUnwindSafe
            + std::panic::UnwindSafe,
    >,
>;

/// One lazy DFA of a [`RegexSet`]: its patterns (their indices in the
/// set) and whether it is searched anchored.
struct Part {
    dfa: hybrid::dfa::DFA,
    cache: CachePool,
    ids: Vec<usize>,
    anchored: bool,
}

impl std::fmt::Debug for RegexSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegexSet")
            .field("patterns", &self.patterns)
            .finish()
    }
}

/// Why a set was refused: a pattern's syntax or its automaton's size.
pub(crate) type SetError = Box<dyn std::error::Error + Send + Sync>;

impl RegexSet {
    pub fn new<I, S>(patterns: I) -> Result<RegexSet, SetError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let patterns: Vec<String> = patterns
            .into_iter()
            .map(|p| p.as_ref().to_owned())
            .collect();
        let mut hirs = Vec::with_capacity(patterns.len());
        for p in &patterns {
            hirs.push(syntax::parse_with(p, &syntax())?);
        }
        let (mut anchored, mut free) = (Vec::new(), Vec::new());
        for (i, h) in hirs.iter().enumerate() {
            if h.properties().look_set_prefix().contains(Look::Start) {
                anchored.push(i);
            } else {
                free.push(i);
            }
        }
        let mut parts = Vec::new();
        for (ids, anchored) in [(anchored, true), (free, false)] {
            if ids.is_empty() {
                continue;
            }
            let of: Vec<&Hir> = ids.iter().map(|&i| &hirs[i]).collect();
            let nfa = thompson::Compiler::new()
                .configure(
                    thompson::Config::new()
                        .utf8(false)
                        .nfa_size_limit(Some(10 * (1 << 20)))
                        .shrink(false)
                        .which_captures(WhichCaptures::None),
                )
                .build_many_from_hir(&of)?;
            // The meta regex's lazy DFA configuration (its forward half).
            let dfa = hybrid::dfa::Builder::new()
                .configure(
                    hybrid::dfa::Config::new()
                        .match_kind(MatchKind::All)
                        .unicode_word_boundary(true)
                        .cache_capacity(2 * (1 << 20))
                        .skip_cache_capacity_check(false)
                        .minimum_cache_clear_count(Some(3))
                        .minimum_bytes_per_state(Some(10)),
                )
                .build_from_nfa(nfa)?;
            let d = dfa.clone();
            let cache: CachePool = Pool::new(Box::new(move || d.create_cache()));
            parts.push(Part {
                dfa,
                cache,
                ids,
                anchored,
            });
        }
        Ok(RegexSet {
            patterns,
            parts,
            fallback: OnceLock::new(),
        })
    }

    /// Whether each pattern matches somewhere in `h`.
    fn answer(&self, h: &[u8]) -> Vec<bool> {
        let mut hit = vec![false; self.patterns.len()];
        for part in &self.parts {
            let mut set = PatternSet::new(part.ids.len());
            let input = Input::new(h).anchored(if part.anchored {
                Anchored::Yes
            } else {
                Anchored::No
            });
            let mut cache = part.cache.get();
            if part
                .dfa
                .try_which_overlapping_matches(&mut cache, &input, &mut set)
                .is_err()
            {
                return self.answer_by_meta(h);
            }
            for p in set.iter() {
                hit[part.ids[p.as_usize()]] = true;
            }
        }
        hit
    }

    /// [`RegexSet::answer`] by the meta set (what `regex` runs).
    fn answer_by_meta(&self, h: &[u8]) -> Vec<bool> {
        let re = self.fallback.get_or_init(|| {
            meta::Builder::new()
                .configure(config(MatchKind::All, WhichCaptures::None))
                .syntax(syntax())
                .build_many(&self.patterns)
                .expect("a set whose lazy DFAs were built")
        });
        let mut set = PatternSet::new(re.pattern_len());
        re.which_overlapping_matches(&Input::new(h), &mut set);
        let mut hit = vec![false; self.patterns.len()];
        for p in set.iter() {
            hit[p.as_usize()] = true;
        }
        hit
    }

    /// The patterns that match somewhere in `h`, in index order.
    pub fn matches(&self, h: &[u8]) -> impl Iterator<Item = usize> {
        let hit = self.answer(h);
        (0..hit.len()).filter(move |&i| hit[i])
    }

    /// The first pattern, by index, that matches somewhere in `h`.
    pub fn first(&self, h: &[u8]) -> Option<usize> {
        self.matches(h).next()
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
                // A match that starts at `at` is the leftmost one from
                // there when it starts there.
                for at in 0..=t.len() {
                    let want = theirs
                        .find_at(t, at)
                        .filter(|m| m.start() == at)
                        .map(|m| m.range());
                    assert_eq!(ours.find_at_start(t, at), want, "{p} {t:?} {at}");
                }
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

    /// The text form answers as `regex::Regex` on any text.
    #[test]
    fn text_form_answers_as_regex_does() {
        let texts = [
            "",
            "a\u{e9}b \u{660}1:00",
            "\u{2003}err \u{e9}rror",
            "x\u{1F600}y",
        ];
        for p in [r"\w+", r"\b\w", r"", r"\s*", r"(?i)\berr(or)?\b", r"\d"] {
            let ours = Regex::text(p).unwrap();
            let theirs = regex::Regex::new(p).unwrap();
            for t in texts {
                let a: Vec<_> = ours.find_iter(t.as_bytes()).collect();
                let b: Vec<_> = theirs.find_iter(t).map(|m| m.range()).collect();
                assert_eq!(a, b, "{p} {t:?}");
                for at in (0..=t.len()).filter(|&at| t.is_char_boundary(at)) {
                    assert_eq!(
                        ours.find_at_start(t.as_bytes(), at),
                        theirs
                            .find_at(t, at)
                            .filter(|m| m.start() == at)
                            .map(|m| m.range()),
                        "{p} {t:?} {at}"
                    );
                }
            }
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
            let ours: Vec<_> = SETS.0.matches(&t).collect();
            let theirs: Vec<_> = SETS.1.matches(&t).iter().collect();
            proptest::prop_assert_eq!(ours, theirs);
        }
    }

    /// The patterns as one set both ways, with anchored ones among them
    /// (a DFA of their own) and a haystack's start that may match them.
    static SETS: std::sync::LazyLock<(RegexSet, regex::bytes::RegexSet)> =
        std::sync::LazyLock::new(|| {
            let mut all = PATTERNS.to_vec();
            all.extend([r"(?-u)^\d+ ", r"(?-u)^a|^\w+:", r"(?-u)^$", r"(?-u)\d$|^b"]);
            (
                RegexSet::new(&all).unwrap(),
                regex::bytes::RegexSet::new(&all).unwrap(),
            )
        });

    /// Sets of anchored patterns only, of unanchored ones only, and of
    /// none answer as `regex` does.
    #[test]
    fn sets_of_one_kind_answer_as_regex_does() {
        let kinds: [&[&str]; 3] = [&[r"^a", r"^\d+ ", r"^$"], &[r"a", r"\d+ ", r"$"], &[]];
        for pats in kinds {
            let ours = RegexSet::new(pats).unwrap();
            let theirs = regex::bytes::RegexSet::new(pats).unwrap();
            for t in TEXTS.iter().copied().chain([&b"12 a"[..], b"a12 "]) {
                let a: Vec<_> = ours.matches(t).collect();
                let b: Vec<_> = theirs.matches(t).iter().collect();
                assert_eq!(a, b, "{pats:?} {t:?}");
            }
        }
    }
}
