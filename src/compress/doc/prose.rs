//! Reading prose for the lean document view: where a paragraph's first
//! sentence ends, how many words a cut hides, inline link targets folded
//! to `(…)`, and a document cleaned of terminal escapes and nroff
//! overstrike (`N\bNA\bA` bold, `_\bx` underline) before it is read.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

/// A sentence longer than this (bytes) is cut at a word near it: prose
/// with no sentence ends (a listing, a run-on line) still gets a bound.
pub(super) const MAX_SENTENCE: usize = 400;

/// Words before a `.` that do not end a sentence.
const ABBREVIATIONS: [&str; 24] = [
    "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "e.g", "i.e", "cf", "al", "fig", "no",
    "inc", "ltd", "co", "approx", "resp", "vol", "pp", "eq", "ca",
];

/// Where the first sentence of `lines` ends: the index of the line and
/// the byte just after the terminator (and any closing quotes or
/// brackets). `from` is where the text starts on the first line (after a
/// list marker). `None` when the text ends inside its first sentence (it
/// is all one sentence). A sentence that runs past [`MAX_SENTENCE`] bytes
/// ends at the last space before that bound (`capped`).
pub(crate) fn first_sentence<'a>(
    lines: impl Iterator<Item = &'a str>,
    from: usize,
) -> Option<SentenceEnd> {
    let mut seen = 0usize;
    let mut it = lines.enumerate().peekable();
    while let Some((k, line)) = it.next() {
        let start = if k == 0 { from.min(line.len()) } else { 0 };
        let b = line.as_bytes();
        let mut last_space = None;
        let mut i = start;
        while i < b.len() {
            let c = b[i];
            if c == b' ' || c == b'\t' {
                last_space = Some(i);
            }
            if seen + (i - start) >= MAX_SENTENCE {
                if let Some(s) = last_space.filter(|&s| s > start) {
                    return Some(SentenceEnd {
                        line: k,
                        at: s,
                        capped: true,
                    });
                }
            }
            if c >= 0x80 {
                // CJK full stops end a sentence with no space after them.
                let ch = line[i..].chars().next().unwrap_or(' ');
                if matches!(ch, '\u{3002}' | '\u{ff01}' | '\u{ff1f}') {
                    let end = i + ch.len_utf8();
                    if line[end..].trim().is_empty() && it.peek().is_none() {
                        return None;
                    }
                    return Some(SentenceEnd {
                        line: k,
                        at: end,
                        capped: false,
                    });
                }
                i += ch.len_utf8();
                continue;
            }
            if matches!(c, b'.' | b'!' | b'?') {
                let mut end = i + 1;
                while end < b.len() && matches!(b[end], b')' | b']' | b'"' | b'\'' | b'*' | b'_') {
                    end += 1;
                }
                // Closing curly quotes.
                while line[end..].starts_with('\u{201d}') || line[end..].starts_with('\u{2019}') {
                    end += 3;
                }
                let rest = &line[end..];
                let spaced = rest.is_empty() || rest.starts_with([' ', '\t', '\r']);
                // A sentence has two words at least (`1.`, `#.`, `No.`
                // do not end one).
                let worded = k > 0 || line[start..i].split_whitespace().count() >= 2;
                if spaced && worded && (c != b'.' || !abbreviation(&line[start..i])) {
                    // The next word: on this line, or the next one's first.
                    let next = match rest.trim_start() {
                        "" => it.peek().map(|(_, l)| l.trim_start()),
                        r => Some(r),
                    };
                    match next {
                        None => return None,
                        Some(n) if starts_sentence(n) => {
                            return Some(SentenceEnd {
                                line: k,
                                at: end,
                                capped: false,
                            })
                        }
                        Some(_) => {}
                    }
                }
                i = end;
                continue;
            }
            i += 1;
        }
        seen += b.len().saturating_sub(start) + 1;
    }
    None
}

/// The end of a first sentence (see [`first_sentence`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SentenceEnd {
    /// Which line, counted from the first one read.
    pub line: usize,
    /// The byte after the sentence on that line.
    pub at: usize,
    /// The sentence was cut at the length bound, not at its end.
    pub capped: bool,
}

/// A word before `.` that does not end a sentence: a known abbreviation
/// or a single letter (an initial, `a.` in a list).
fn abbreviation(before: &str) -> bool {
    let word = before
        .rsplit(|c: char| c.is_whitespace() || c == '(' || c == '"')
        .next()
        .unwrap_or("");
    let w = word.trim_start_matches(['(', '[', '"', '\'']);
    if w.chars().count() == 1 && w.chars().all(char::is_alphabetic) {
        return true;
    }
    let lower = w.to_ascii_lowercase();
    ABBREVIATIONS.contains(&lower.as_str())
}

/// Whether `s` (trimmed at its start) can begin a new sentence: not a
/// lowercase letter (`e.g. foo`, `approx. five`).
fn starts_sentence(s: &str) -> bool {
    s.chars().next().is_some_and(|c| !c.is_lowercase())
}

/// A sentence that states a rule: what must, should, may (RFC `MAY`) or
/// may not be done, what only holds when, what is incompatible, required,
/// deprecated or the default.
static NORMATIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(must|shall|should|never|always|required|requires?|mandatory|cannot|can't",
        r"|do not|don't|deprecated|defaults?|by default|recommended|at least|at most|maximum",
        r"|minimum|important|warning|caution|note that|only|unless|not supported|incompatible",
        r"|not allowed|forbidden|prohibited)\b|\b(?-i:MAY|OPTIONAL)\b",
    ))
    .expect("normative pattern")
});
/// A figure: a number with its unit or a count of things, an amount of
/// money, a version, a command-line option or an inline code span (a
/// command, a name, a value).
static FIGURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b\d+([.,]\d+)*\s?(%|percent|[kmgtp]i?b(/s)?|bytes?|bits?|ms|µs|us|ns|s|secs?",
        r"|seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|px|pt|em|rem",
        r"|[kmg]?hz|fps|rps|qps|x|times|lines?|files?|tokens?|characters?|chars?|rows?",
        r"|columns?|threads?|cores?|cpus?|requests?|connections?|retries|attempts|mm|cm|km",
        r"|kg|lbs?|usd|eur|dollars?)\b",
        r"|[$\u{20ac}\u{a3}]\s?\d|\d\s?\u{b0}[CF]",
        // A count of things: `17 faults`, `32 data nodes`.
        r"|(^|[\s(])\d+([.,]\d+)*\s+[a-z]{3,}",
        r"|\bv?\d+\.\d+\.\d+|\bv\d+(\.\d+)?\b",
        r"|\b(version|release|python|node|go|rust|java|php|ruby)\s+\d+(\.\d+)*",
        r"|`[^`]+`|(^|\s)--?[a-zA-Z][\w-]*[=\s]",
        // A sentence that lists the values something takes.
        r"|\b(is|are|be|of) (one|any|either) of\b|\beither\b.*\bor\b",
    ))
    .expect("figure pattern")
});

/// A sentence that is kept beyond a paragraph's first: it states a rule
/// or holds a figure.
pub(super) fn key_sentence(s: &str) -> bool {
    normative(s) || FIGURE.is_match(s)
}

/// A sentence that states a rule (see [`NORMATIVE`]).
pub(crate) fn normative(s: &str) -> bool {
    NORMATIVE.is_match(s)
}

/// The sentences of `text`: byte ranges in order, whitespace between
/// them left out.
pub(crate) fn sentences(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let end = text.trim_end().len();
    let mut at = 0;
    while at < end {
        at += text[at..].len() - text[at..].trim_start().len();
        if at >= end {
            break;
        }
        match first_sentence(std::iter::once(&text[at..end]), 0) {
            Some(e) if e.at > 0 => {
                out.push(at..at + e.at);
                at += e.at;
            }
            _ => {
                out.push(at..end);
                break;
            }
        }
    }
    out
}

/// How much a cut hides, for its marker: words, or characters for text
/// written without spaces between words (Chinese, Japanese).
pub(super) fn amount(s: &str) -> String {
    let (mut wide, mut letters) = (0usize, 0usize);
    for c in s.chars() {
        if matches!(c, '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{9fff}' | '\u{ac00}'..='\u{d7af}')
        {
            wide += 1;
        } else if c.is_alphabetic() {
            letters += 1;
        }
    }
    if wide > letters {
        let n = s.chars().filter(|c| !c.is_whitespace()).count();
        format!("{n} characters")
    } else {
        format!("{} words", words(s))
    }
}

/// Whitespace-separated words of `s`.
pub(super) fn words(s: &str) -> usize {
    s.split_whitespace().count()
}

/// Link targets shorter than this stay.
const MIN_TARGET: usize = 12;

/// A reStructuredText inline link whose target is long enough to fold.
static RST_LINK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(`[^`<]*[^`<\s]\s+<)([^<>`]{12,})(>`__?)").expect("rst link pattern")
});

/// Inline link and image targets folded: `[text](url "title")` becomes
/// `[text](…)` when the target is long enough to be worth it; returns the
/// line and how many targets were folded. Link text, autolinks and bare
/// URLs stay as they are.
pub(super) fn fold_links(line: &str) -> (Cow<'_, str>, usize) {
    if line.contains(">`_") {
        // reStructuredText: `text <url>`_
        let n = RST_LINK.find_iter(line).count();
        if n > 0 {
            let folded = RST_LINK.replace_all(line, "$1\u{2026}$3");
            let (more, m) = fold_links(&folded);
            return (Cow::Owned(more.into_owned()), n + m);
        }
    }
    if !line.contains("](") {
        return (Cow::Borrowed(line), 0);
    }
    let mut out = String::with_capacity(line.len());
    let (mut copied, mut folded) = (0, 0);
    let mut i = 0;
    while let Some(off) = line[i..].find("](") {
        let open = i + off + 1;
        // The link text must be non-empty: `[](x)` is not a link to fold.
        let non_empty = line[..open - 1]
            .rfind('[')
            .is_some_and(|s| s + 1 < open - 1);
        let Some(close) = target_end(line, open) else {
            i = open + 1;
            continue;
        };
        if non_empty && close - open > MIN_TARGET {
            out.push_str(&line[copied..=open]);
            out.push('\u{2026}');
            copied = close;
            folded += 1;
        }
        i = close;
    }
    if folded == 0 {
        return (Cow::Borrowed(line), 0);
    }
    out.push_str(&line[copied..]);
    (Cow::Owned(out), folded)
}

/// The `)` that closes the link target opened by the `(` at `open`:
/// balanced parentheses, no space except before a quoted title.
fn target_end(line: &str, open: usize) -> Option<usize> {
    let b = line.as_bytes();
    let mut depth = 0usize;
    let mut j = open;
    while j < b.len() {
        match b[j] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            b' ' | b'\t' => {
                let rest = line[j..].trim_start();
                let q = rest.chars().next()?;
                if q != '"' && q != '\'' {
                    return None;
                }
                let title = &rest[1..];
                let end = title.find(q)?;
                let after = title[end + 1..].trim_start();
                return after.starts_with(')').then(|| line.len() - after.len());
            }
            _ => {}
        }
        j += 1;
    }
    None
}

/// The text with every line's carriage-return redraws resolved, terminal
/// escapes removed and nroff overstrike resolved (`X\bX` is X, `_\bX`
/// and `X\b_` are X, `+\bo` is o); borrowed when there is none of them.
pub(crate) fn cleaned(text: &str) -> Cow<'_, str> {
    let b = text.as_bytes();
    let has_cr = memchr::memchr_iter(b'\r', b).any(|p| b.get(p + 1) != Some(&b'\n'));
    if !has_cr && memchr::memchr2(0x1b, 0x08, b).is_none() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for (k, line) in text.split('\n').enumerate() {
        if k > 0 {
            out.push('\n');
        }
        let line = crate::compress::terminal::clean(line);
        out.push_str(&unstrike(&line));
    }
    Cow::Owned(out)
}

/// Overstrike resolved: a character, a backspace and another character
/// print as the second, unless it is `_` (an underline under the first).
fn unstrike(line: &str) -> Cow<'_, str> {
    if !line.contains('\u{8}') {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '\u{8}' {
            out.push(c);
            continue;
        }
        let Some(prev) = out.pop() else {
            continue;
        };
        match chars.next() {
            Some('_') if prev != '_' => out.push(prev),
            Some('\u{8}') => out.push(prev),
            Some(next) => out.push(next),
            None => out.push(prev),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(text: &str) -> Option<(usize, usize, bool)> {
        first_sentence(text.split('\n'), 0).map(|e| (e.line, e.at, e.capped))
    }

    #[test]
    fn sentences_end_at_a_stop_before_a_capital() {
        assert_eq!(first("One two. Three four."), Some((0, 8, false)));
        assert_eq!(first("One two.\nThree four."), Some((0, 8, false)));
        assert_eq!(first("Use e.g. this. Then"), Some((0, 14, false)));
        assert_eq!(
            first("Call _.debounce(f, 10) now. And"),
            Some((0, 27, false))
        );
        assert_eq!(first("Mr. Smith went home. He"), Some((0, 20, false)));
        assert_eq!(first("J. R. R. Tolkien wrote. Then"), Some((0, 23, false)));
        assert_eq!(first("He said \"stop.\" Then"), Some((0, 15, false)));
        assert_eq!(first("Version 1.2.3 is out! Get"), Some((0, 21, false)));
        assert_eq!(first("only one sentence."), None);
        assert_eq!(first("only one\nsentence here."), None);
        assert_eq!(first("これは文です。次の文"), Some((0, 21, false)));
        let long = "word ".repeat(200);
        let e = first(&long).unwrap();
        assert!(
            e.2 && e.1 <= MAX_SENTENCE && e.1 > MAX_SENTENCE - 10,
            "{e:?}"
        );
    }

    #[test]
    fn rules_and_figures_are_key() {
        assert!(key_sentence("The value must be positive."));
        assert!(key_sentence("It takes 30 seconds on a laptop."));
        assert!(key_sentence("Requires Python 3.8 or later."));
        assert!(key_sentence("Run `make install` first."));
        assert!(key_sentence("Pass --verbose to see more."));
        assert!(key_sentence("Upgrade to 1.4.2 now."));
        assert!(key_sentence("There are 17 faults we have injected."));
        assert!(!key_sentence("This crate is a joy to use."));
        assert!(!key_sentence("Published in Proc. SOSP, 2009."));
        let t = "One two. Three four must. Five six";
        let s: Vec<&str> = sentences(t).into_iter().map(|r| &t[r]).collect();
        assert_eq!(s, ["One two.", "Three four must.", "Five six"]);
        assert_eq!(amount("a b c"), "3 words");
        assert_eq!(amount("肉をくわえた イヌ"), "8 characters");
    }

    #[test]
    fn link_targets_fold() {
        assert_eq!(
            fold_links("* [#1333](https://github.com/rust-lang/regex/issues/1333): fix"),
            (Cow::Borrowed("* [#1333](\u{2026}): fix"), 1)
        );
        assert_eq!(
            fold_links("[![ci](https://img.shields.io/x.svg)](https://github.com/a/b)").1,
            2
        );
        assert_eq!(
            fold_links("[a](#top) and f(x) [](https://example.com/x)").1,
            0
        );
        assert_eq!(
            fold_links("see [docs](https://docs.rs/a_(b)/c \"T\") now").0,
            "see [docs](\u{2026}) now"
        );
        assert_eq!(
            fold_links("the `issue tracker <https://github.com/pytest-dev/pytest/issues>`_.").0,
            "the `issue tracker <\u{2026}>`_."
        );
    }

    #[test]
    fn overstrike_and_escapes_resolve() {
        assert_eq!(
            cleaned("N\u{8}NA\u{8}AM\u{8}ME\u{8}E\n_\u{8}f_\u{8}i_\u{8}l_\u{8}e"),
            "NAME\nfile"
        );
        assert_eq!(cleaned("\u{1b}[1mbold\u{1b}[0m x"), "bold x");
        assert_eq!(cleaned("+\u{8}o item"), "o item");
        assert!(matches!(cleaned("plain\r\ntext"), Cow::Borrowed(_)));
    }
}
