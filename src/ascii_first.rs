//! Regexes compiled for the text they meet: an ASCII form for ASCII
//! haystacks, the Unicode form only when a haystack holds a non-ASCII
//! byte.
//!
//! Every call is a new process, so compiling a pattern is paid on every
//! payload, and Unicode classes are what makes compiling dear: each `\d`,
//! `\w` or `\s` of a pattern is a UTF-8 automaton of dozens to hundreds
//! of ranges, built forward and reverse (the joined timestamp formats
//! cost 60 times more than their ASCII form). On a haystack that is all
//! ASCII, the pattern under `(?-u)` matches exactly the same spans:
//! Unicode `\d`, `\w`, `\s` and `\b` restricted to ASCII are the ASCII
//! classes and boundary, and `(?i)` folds no ASCII letter onto another
//! but its case pair (the two runes that fold onto ASCII, `ſ` and the
//! Kelvin sign, are not ASCII, and no pattern here spells them). So the
//! answers are the Unicode pattern's own, to the byte, and the Unicode
//! form is compiled only for a payload that needs it.
//!
//! A pattern given here must compile under `(?-u)` (no non-ASCII
//! character inside a bracket class, no `\p{…}`); the tests of each user
//! force both forms.

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::rx;

/// A pattern with its two lazily compiled forms.
pub(crate) struct AsciiFirst {
    pattern: Cow<'static, str>,
    ascii: OnceLock<rx::Regex>,
    /// `regex::Regex`'s matches, built without the parts that pay off
    /// only over long searches ([`rx`]).
    unicode: OnceLock<rx::Regex>,
}

/// A match: the same accessors as [`regex::Match`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Found<'h> {
    haystack: &'h str,
    start: usize,
    end: usize,
}

impl<'h> Found<'h> {
    pub fn start(&self) -> usize {
        self.start
    }

    pub fn end(&self) -> usize {
        self.end
    }

    pub fn as_str(&self) -> &'h str {
        &self.haystack[self.start..self.end]
    }
}

impl AsciiFirst {
    /// A pattern known at compile time (for a `static`).
    pub const fn new(pattern: &'static str) -> AsciiFirst {
        AsciiFirst {
            pattern: Cow::Borrowed(pattern),
            ascii: OnceLock::new(),
            unicode: OnceLock::new(),
        }
    }

    /// A pattern built at run time.
    pub fn owned(pattern: String) -> AsciiFirst {
        AsciiFirst {
            pattern: Cow::Owned(pattern),
            ascii: OnceLock::new(),
            unicode: OnceLock::new(),
        }
    }

    fn ascii(&self) -> &rx::Regex {
        self.ascii.get_or_init(|| {
            rx::Regex::new(&format!("(?-u){}", self.pattern))
                .unwrap_or_else(|e| panic!("pattern {:?} (ASCII form): {e}", self.pattern))
        })
    }

    fn unicode(&self) -> &rx::Regex {
        self.unicode.get_or_init(|| {
            rx::Regex::text(&self.pattern)
                .unwrap_or_else(|e| panic!("pattern {:?}: {e}", self.pattern))
        })
    }

    /// Compiles both forms now (tests: a pattern that has no ASCII form
    /// fails here, not on the first payload that reaches it).
    #[cfg(test)]
    pub fn force(&self) {
        self.ascii();
        self.unicode();
    }

    /// The form that answers for `h`.
    fn form(&self, h: &str) -> &rx::Regex {
        if h.is_ascii() {
            self.ascii()
        } else {
            self.unicode()
        }
    }

    pub fn is_match(&self, h: &str) -> bool {
        self.form(h).is_match(h.as_bytes())
    }

    pub fn find<'h>(&self, h: &'h str) -> Option<Found<'h>> {
        let m = self.form(h).find(h.as_bytes())?;
        let (start, end) = (m.start, m.end);
        Some(Found {
            haystack: h,
            start,
            end,
        })
    }

    /// The leftmost-first match that starts at byte `at` of `h` (the
    /// text before it still seen by `\b`), if one does.
    pub fn find_at_start<'h>(&self, h: &'h str, at: usize) -> Option<Found<'h>> {
        let m = self.form(h).find_at_start(h.as_bytes(), at)?;
        let (start, end) = (m.start, m.end);
        Some(Found {
            haystack: h,
            start,
            end,
        })
    }

    /// The successive non-overlapping matches, as [`regex::Regex::find_iter`].
    pub fn find_iter<'a>(&'a self, h: &'a str) -> impl Iterator<Item = Found<'a>> + 'a {
        self.form(h).find_iter(h.as_bytes()).map(move |m| Found {
            haystack: h,
            start: m.start,
            end: m.end,
        })
    }

    /// Every match replaced by what `with` appends for its text, as
    /// [`regex::Regex::replace_all`] with a closure (borrowed when nothing
    /// matched).
    pub fn replace_all_with<'h>(
        &self,
        h: &'h str,
        mut with: impl FnMut(&str, &mut String),
    ) -> Cow<'h, str> {
        let mut out = String::new();
        let mut last = 0;
        let mut any = false;
        for m in self.find_iter(h) {
            any = true;
            out.push_str(&h[last..m.start()]);
            with(m.as_str(), &mut out);
            last = m.end();
        }
        if !any {
            return Cow::Borrowed(h);
        }
        out.push_str(&h[last..]);
        Cow::Owned(out)
    }

    /// Every match replaced by `rep`, taken literally (no `$` expansion).
    pub fn replace_all<'h>(&self, h: &'h str, rep: &str) -> Cow<'h, str> {
        self.replace_all_with(h, |_, out| out.push_str(rep))
    }
}

/// A set of patterns with the same two forms ([`AsciiFirst`]).
pub(crate) struct AsciiFirstSet {
    patterns: &'static [&'static str],
    ascii: OnceLock<rx::RegexSet>,
    unicode: OnceLock<regex::RegexSet>,
}

impl AsciiFirstSet {
    pub const fn new(patterns: &'static [&'static str]) -> AsciiFirstSet {
        AsciiFirstSet {
            patterns,
            ascii: OnceLock::new(),
            unicode: OnceLock::new(),
        }
    }

    /// The index of the first pattern that matches somewhere in `h`.
    pub fn first(&self, h: &str) -> Option<usize> {
        if h.is_ascii() {
            let set = self.ascii.get_or_init(|| {
                rx::RegexSet::new(self.patterns.iter().map(|p| format!("(?-u){p}")))
                    .expect("pattern set (ASCII form)")
            });
            set.first(h.as_bytes())
        } else {
            let set = self
                .unicode
                .get_or_init(|| regex::RegexSet::new(self.patterns).expect("pattern set"));
            set.matches(h).iter().next()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATTERNS: &[&str] = &[
        r"\b\d{2}:\d{2}:\d{2}(?:\.\d+)?\b",
        r"(?i)\berr(or)?s?\b",
        r"(^|[^\w.,])0+[ \t]+$",
        r"\s+\w+(\.\w+)+\(.*\)$",
        r"",
    ];

    /// On ASCII text the ASCII form answers as the Unicode form does;
    /// on other text the Unicode form answers.
    #[test]
    fn answers_as_the_unicode_pattern() {
        let texts = [
            "at 10:00:01.5 ERRORS x",
            "0  ",
            "a.0 ",
            "  at com.x.Y(Z.java:1)",
            "10:00:01",
            "",
            "\u{e9}rror 10:00:01 err",
            "x\u{0660}1:00:00 errs",
        ];
        for p in PATTERNS {
            let af = AsciiFirst::new(p);
            af.force();
            let re = regex::Regex::new(p).unwrap();
            for t in texts {
                assert_eq!(af.is_match(t), re.is_match(t), "{p} {t:?}");
                let ours: Vec<_> = af.find_iter(t).map(|m| m.start()..m.end()).collect();
                let theirs: Vec<_> = re.find_iter(t).map(|m| m.start()..m.end()).collect();
                assert_eq!(ours, theirs, "{p} {t:?}");
                assert_eq!(
                    af.find(t).map(|m| m.start()..m.end()),
                    re.find(t).map(|m| m.start()..m.end())
                );
                for at in (0..=t.len()).filter(|&at| t.is_char_boundary(at)) {
                    assert_eq!(
                        af.find_at_start(t, at).map(|m| m.start()..m.end()),
                        re.find_at(t, at)
                            .filter(|m| m.start() == at)
                            .map(|m| m.start()..m.end()),
                        "{p} {t:?} {at}"
                    );
                }
                assert_eq!(
                    af.replace_all(t, "<*>"),
                    re.replace_all(t, regex::NoExpand("<*>")),
                    "{p} {t:?}"
                );
            }
        }
        let set = AsciiFirstSet::new(PATTERNS);
        let theirs = regex::RegexSet::new(PATTERNS).unwrap();
        for t in texts {
            assert_eq!(set.first(t), theirs.matches(t).iter().next(), "{t:?}");
        }
    }

    proptest::proptest! {
        /// Any ASCII text: the same matches as the Unicode pattern.
        #[test]
        fn ascii_text_matches_alike(t in "[ -~\t]{0,40}") {
            for p in PATTERNS {
                let af = AsciiFirst::new(p);
                let re = regex::Regex::new(p).unwrap();
                let ours: Vec<_> = af.find_iter(&t).map(|m| m.start()..m.end()).collect();
                let theirs: Vec<_> = re.find_iter(&t).map(|m| m.start()..m.end()).collect();
                proptest::prop_assert_eq!(ours, theirs);
            }
        }
    }
}
