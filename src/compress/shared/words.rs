//! `(?i)\b(word|…)\b` with ASCII word boundaries, as an exact scan of
//! maximal ASCII word runs: a match must be a whole run, compared without
//! ASCII case. Go's `(?i)` also folds `ſ` (U+017F) to `s` (and the Kelvin
//! sign to `k`, which none of the word lists contain); a text holding `ſ`
//! goes to the regex, which folds the same way.

use regex::Regex;

/// A case-insensitive whole-word matcher over a fixed word list.
pub struct WordSet {
    words: &'static [&'static str],
    /// Compiled on first need (a text holding `ſ`): compiling a Unicode
    /// case-insensitive pattern costs about a millisecond.
    regex: std::sync::OnceLock<Regex>,
    max_len: usize,
    min_len: usize,
}

impl WordSet {
    pub fn new(words: &'static [&'static str]) -> WordSet {
        WordSet {
            words,
            regex: std::sync::OnceLock::new(),
            max_len: words.iter().map(|w| w.len()).max().unwrap_or(0),
            min_len: words.iter().map(|w| w.len()).min().unwrap_or(0).max(1),
        }
    }

    fn regex(&self) -> &Regex {
        self.regex.get_or_init(|| {
            let pattern = format!(r"(?i)(?-u:\b)({})(?-u:\b)", self.words.join("|"));
            Regex::new(&pattern).expect("word-list pattern")
        })
    }

    /// True when some word of the list occurs as a whole ASCII word.
    pub fn is_match(&self, text: &str) -> bool {
        self.is_match_utf8(text.as_bytes())
    }

    /// [`WordSet::is_match`] of text known to be UTF-8, without checking it
    /// again (bytes that are not UTF-8 match as their lossy text would).
    pub fn is_match_utf8(&self, b: &[u8]) -> bool {
        if memchr::memmem::find(b, "\u{17F}".as_bytes()).is_some() {
            return self.regex().is_match(&String::from_utf8_lossy(b));
        }
        // One pass over the bytes: at the end of each maximal ASCII word
        // run, compare it when its length can match.
        let n = b.len();
        let mut i = 0;
        while i < n {
            while i < n && !WORD_BYTE[b[i] as usize] {
                i += 1;
            }
            let start = i;
            while i < n && WORD_BYTE[b[i] as usize] {
                i += 1;
            }
            let run = &b[start..i];
            if run.len() >= self.min_len && run.len() <= self.max_len && self.is_word(run) {
                return true;
            }
        }
        false
    }

    fn is_word(&self, run: &[u8]) -> bool {
        self.words
            .iter()
            .any(|w| w.len() == run.len() && w.as_bytes().eq_ignore_ascii_case(run))
    }
}

/// RE2's ASCII `\w` as a table: `[0-9A-Za-z_]`.
static WORD_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = crate::text::is_ascii_word(c as u8);
        c += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::WordSet;

    #[test]
    fn agrees_with_the_regex() {
        static W: &[&str] = &["error", "errors", "fail", "security", "crash"];
        let ws = WordSet::new(W);
        for (t, want) in [
            ("an error here", true),
            ("ERRORS", true),
            ("error_count", false),
            ("xerror", false),
            ("éerror", true),
            ("\"\\u003cerror\\u003e\"", false),
            ("x ſecurity y", false),
            ("xſecurity", true),
            ("1ſecurity", true),
            ("_ſecurity", true),
            ("craſh", true),
            ("fail2", false),
        ] {
            assert_eq!(ws.is_match(t), want, "{t}");
            assert_eq!(ws.regex().is_match(t), want, "regex {t}");
        }
    }
}

/// Lowercases for Go's `(?i)` against ASCII word lists: ASCII letters fold,
/// `ſ` (U+017F) folds to `s` and the Kelvin sign (U+212A) to `k`; any other
/// non-ASCII rune can never equal an ASCII letter and is kept as is.
pub fn fold_ascii(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\u{17F}' => 's',
            '\u{212A}' => 'k',
            c => c.to_ascii_lowercase(),
        })
        .collect()
}

#[cfg(test)]
mod fold_tests {
    use super::fold_ascii;

    #[test]
    fn folds_like_go() {
        assert_eq!(fold_ascii("ſtack"), "stack");
        assert_eq!(fold_ascii("TRACE\u{212A}"), "tracek");
        assert_eq!(fold_ascii("Éx"), "Éx");
    }
}
