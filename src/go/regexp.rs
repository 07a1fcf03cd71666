//! Go RE2 semantics for the reference's patterns, in one place.
//!
//! * [`compile`] translates a Go pattern to a `regex` one with Go's ASCII
//!   classes: `\b`, `\d`, `\s`, `\w` are ASCII-only in RE2, Unicode-aware
//!   by default in Rust, and RE2's `\s` has no `\v`. `(?i)` is simple case
//!   folding in both (`ſ` matches `s`, the Kelvin sign `k`).
//! * [`WordSet`] is `(?i)\b(word|…)\b` over a fixed word list as an exact
//!   scan of maximal ASCII word runs: a match must be a whole run, compared
//!   without ASCII case. A text holding `ſ` (U+017F) or the Kelvin sign
//!   (U+212A), the two non-ASCII runes that fold onto ASCII letters, goes
//!   to the compiled pattern, which folds them as Go does.

use regex::Regex;

/// ASCII word character, as RE2's `\w` (`[0-9A-Za-z_]`).
#[inline]
pub const fn is_ascii_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The maximal runs of ASCII word characters: exactly the spans `\b…\b`
/// can match whole under RE2's ASCII word boundaries.
pub fn ascii_words(b: &[u8]) -> impl Iterator<Item = &[u8]> {
    b.split(|&c| !is_ascii_word(c)).filter(|w| !w.is_empty())
}

/// True when `b` holds `ſ` or the Kelvin sign: under `(?i)` they match
/// ASCII `s` and `k`, which a byte-wise comparison does not see.
pub fn has_ascii_folding_rune(b: &[u8]) -> bool {
    memchr::memmem::find(b, "\u{17F}".as_bytes()).is_some()
        || memchr::memmem::find(b, "\u{212A}".as_bytes()).is_some()
}

/// Compiles a Go (RE2) pattern with Go's meaning: `\b`/`\B` are ASCII word
/// boundaries, `\d`/`\s`/`\w` (and their negations) ASCII classes, `\s`
/// without `\v`. The pattern is one of the reference's own, so a failure
/// is a bug here, not bad input.
pub fn compile(go_pattern: &str) -> Regex {
    let translated = translate(go_pattern);
    Regex::new(&translated).unwrap_or_else(|e| panic!("pattern {go_pattern:?}: {e}"))
}

/// RE2 syntax to `regex` syntax with RE2's ASCII classes. Inside a
/// bracket class the class escapes expand in place (negated ones as a
/// nested class, which `regex` allows), and the characters that `regex`
/// reads as nested-class or set operators (`[`, `&&`, `~~`, `--`) are
/// escaped.
fn translate(p: &str) -> String {
    const S: &str = r"\t\n\x0C\r ";
    const D: &str = "0-9";
    const W: &str = "0-9A-Za-z_";
    let mut out = String::with_capacity(p.len() + 32);
    let mut chars = p.chars().peekable();
    let mut in_class = false;
    let mut class_start = false;
    while let Some(c) = chars.next() {
        if c == '\\' {
            let Some(e) = chars.next() else {
                out.push('\\');
                break;
            };
            let (set, negated) = match e {
                'd' => (Some(D), false),
                'D' => (Some(D), true),
                's' => (Some(S), false),
                'S' => (Some(S), true),
                'w' => (Some(W), false),
                'W' => (Some(W), true),
                _ => (None, false),
            };
            match (set, in_class) {
                (Some(s), false) => {
                    out.push_str(if negated { "[^" } else { "[" });
                    out.push_str(s);
                    out.push(']');
                }
                (Some(s), true) if negated => {
                    out.push_str("[^");
                    out.push_str(s);
                    out.push(']');
                }
                (Some(s), true) => out.push_str(s),
                (None, false) if e == 'b' || e == 'B' => {
                    out.push_str("(?-u:\\");
                    out.push(e);
                    out.push(')');
                }
                (None, _) => {
                    out.push('\\');
                    out.push(e);
                }
            }
            class_start = false;
            continue;
        }
        if in_class {
            match c {
                ']' if !class_start => {
                    in_class = false;
                    out.push(']');
                }
                '[' => out.push_str("\\["),
                '&' | '~' if chars.peek() == Some(&c) => {
                    out.push('\\');
                    out.push(c);
                }
                '-' if chars.peek() == Some(&'-') => out.push_str("\\-"),
                _ => out.push(c),
            }
            class_start = class_start && c == '^';
            continue;
        }
        out.push(c);
        if c == '[' {
            in_class = true;
            class_start = true;
            if chars.peek() == Some(&'^') {
                out.push('^');
                chars.next();
            }
        }
    }
    out
}

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
        if has_ascii_folding_rune(b) {
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
        t[c] = is_ascii_word(c as u8);
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

    #[test]
    fn translation_keeps_go_meaning() {
        let re = super::compile(r"(?i)\b(ERROR|WARN)\b|^\s+at\s|\.go:\d+");
        for (t, want) in [
            ("an ERROR: x", true),
            ("éerror", true),
            ("errors", false),
            ("_error", false),
            ("\tat foo", true),
            ("\x0bat foo", false),
            ("x.go:12", true),
            ("x.go:٣", false),
            ("ſ WARN", true),
            ("warn\u{212A}", true),
            ("\u{212A}ERROR", true),
        ] {
            assert_eq!(re.is_match(t), want, "{t:?}");
        }
        let re = super::compile(r"^[./~A-Za-z0-9_-][^:\n]{0,3}:\d+:");
        assert!(re.is_match("a/b:1:") && !re.is_match("a/bcde:1:"));
        let re = super::compile(r"[^\S\r\n]x");
        assert!(re.is_match(" x") && !re.is_match("\rx") && !re.is_match("\x0bx"));
        let re = super::compile(r"^[\w&&]$");
        assert!(re.is_match("&") && re.is_match("_") && !re.is_match("-"));
        let re = super::compile(
            r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\x5c-_]",
        );
        assert!(re.is_match("\x1b[2K") && re.is_match("\x1b]0;t\x07") && re.is_match("\x1b]"));
        assert!(!re.is_match("\x1b[") && !re.is_match("\x1b("));
        let re = super::compile(r"(?i)^[A-Z]+$");
        assert!(re.is_match("ſK") && re.is_match("\u{212A}"));
    }
}
