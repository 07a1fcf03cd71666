//! Content-type detection (spec/detect.md): a first-match-wins cascade over
//! the unwrapped payload. The reference's RE2 patterns are ASCII-only for
//! `\b`, `\d`, `\s`, `\w`; they are implemented here as hand-written scanners
//! (linear, allocation-free) or as `regex` patterns spelled with explicit
//! ASCII classes. Invalid UTF-8 is seen as U+FFFD, as in the reference.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

use crate::content_type::ContentType;
use crate::profile::Profile;

pub(crate) mod lang;
pub(crate) mod lean;

use crate::go::json as gojson;
use crate::go::regexp::{ascii_words, is_ascii_word as is_word};
use crate::go::unicode::{contains_lower, fold, is_blank, starts_with_lower, trim_space};
use crate::go::utf8::go_lossy;
use crate::{table, unwrap};
pub use lang::Language;

/// Every type `detect` can print, in the order of the cascade.
pub const TYPES: [ContentType; 10] = [
    ContentType::Json,
    ContentType::Terminal,
    ContentType::Diff,
    ContentType::Html,
    ContentType::Tabular,
    ContentType::Code,
    ContentType::Log,
    ContentType::SearchResult,
    ContentType::Config,
    ContentType::Text,
];

/// Detects the content type of a payload (peeling up to four wrappers).
pub fn detect(input: &[u8]) -> ContentType {
    let (body, _) = unwrap::unwrap(input);
    detect_unwrapped(&body)
}

/// [`detect`] for a body already unwrapped.
pub fn detect_unwrapped(body: &[u8]) -> ContentType {
    detect_body(body, false).0
}

/// What detection parsed on the way to its answer, for the compressor.
#[derive(Debug)]
pub enum Parsed<'a> {
    /// Nothing reusable (or the payload is not JSON or a table).
    Nothing,
    /// The JSON value of the trimmed body, decoded as the elider decodes.
    Json(gojson::Tape<'a>),
    /// The table the sampler reads.
    Table(table::Table<'a>),
    /// The config file's kind, as the config parser decided it.
    Config(ConfigKind),
    /// Source code in this language (lean detection).
    Code(Language),
    /// No rule recognised the payload's structure (lean detection): the
    /// compressor may fold repetition but must not drop unique lines.
    Unsure,
}

/// What kind of config file the parser of detect.md §10 recognised.
/// Compat detection names only `Toml` and `Yaml`; the lean config
/// compressor tells the other dialects apart
/// (`crate::compress::config_dialect`) and detection may name them too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfigKind {
    /// TOML or INI (sections and assignments); wins when both rules hold.
    Toml,
    Yaml,
    /// INI that is not TOML: setup.cfg, tox.ini, .conf, .editorconfig.
    Ini,
    /// `NAME=value` lines (.env).
    Env,
    /// Java `.properties`.
    Properties,
}

/// [`detect`] for an already unwrapped body, keeping the JSON value or
/// the table it had to read anyway: `compress` then does not read it again.
/// The answer is the same as [`detect`]'s: a JSON decode accepts exactly
/// what `json.Valid` accepts, and a table parse exactly what the shape
/// check accepts.
pub fn detect_parsed(body: &[u8]) -> (ContentType, Parsed<'_>) {
    detect_body(body, true)
}

/// What detection decided for an unwrapped body, and the rule that decided.
#[derive(Debug)]
pub struct Detected<'a> {
    pub ct: ContentType,
    /// What was parsed on the way (empty unless `keep` was asked for).
    pub parsed: Parsed<'a>,
    /// The rule that named the type, in words (for `--explain`).
    pub rule: &'static str,
    /// Lean: the other recognisers that held, with how much of the sample
    /// each explained (0–100), best first (for `--explain`).
    pub others: Vec<(&'static str, u32)>,
}

/// Detects an unwrapped body under `profile`; with `keep`, hands over
/// what it parsed; with `others`, lean names the other rules that held
/// too (for `--explain`; the answer is the same without).
pub fn detect_as(body: &[u8], profile: Profile, keep: bool, others: bool) -> Detected<'_> {
    match profile {
        Profile::Compat => {
            let (ct, parsed) = detect_body(body, keep);
            let rule = compat_rule(&ct);
            Detected {
                ct,
                parsed,
                rule,
                others: Vec::new(),
            }
        }
        // Lean reads the text as a terminal shows it.
        Profile::Lean => match crate::compress::shared::clean::clean(body) {
            Cow::Borrowed(b) => lean::detect(b, keep, false, others),
            Cow::Owned(b) => {
                let d = lean::detect(&b, false, true, others);
                Detected {
                    ct: d.ct,
                    parsed: match d.parsed {
                        Parsed::Config(k) => Parsed::Config(k),
                        Parsed::Code(l) => Parsed::Code(l),
                        Parsed::Unsure => Parsed::Unsure,
                        _ => Parsed::Nothing,
                    },
                    rule: d.rule,
                    others: d.others,
                }
            }
        },
    }
}

/// Lean detection of a body already cleaned of terminal escapes
/// ([`crate::compress::shared::clean`]); `coloured` says cleaning
/// changed it (output of a program on a terminal); `others` as for
/// [`detect_as`].
pub fn detect_lean(body: &[u8], keep: bool, coloured: bool, others: bool) -> Detected<'_> {
    lean::detect(body, keep, coloured, others)
}

/// The rule of the compat cascade (spec/detect.md) that gives `ct`: the
/// cascade tries them in this order and the first that holds wins.
pub fn compat_rule(ct: &ContentType) -> &'static str {
    match ct {
        ContentType::Json => "the body is one valid JSON object or array",
        ContentType::Terminal => "an ANSI escape sequence, or 3+ bare carriage returns",
        ContentType::Diff => "4+ diff lines (---/+++/@@/+/-) with a hunk or file header",
        ContentType::Html => "an HTML document start, or 6+ tags with a body/div/p and no code",
        ContentType::Tabular => "8+ rows of one CSV, TSV or Markdown table",
        ContentType::Code => "3+ code keywords and code structure, and not a log",
        ContentType::Log => "at least half the lines (and 3+) carry a level, timestamp or [TAG]",
        ContentType::SearchResult => "a third of the lines (and 4+) are path:line: or URL hits",
        ContentType::Config => "12+ lines of TOML/INI sections and keys, or YAML that decodes",
        ContentType::Text => "no other rule matched",
        _ => "only chosen with --type",
    }
}

fn detect_body(b: &[u8], keep: bool) -> (ContentType, Parsed<'_>) {
    let t = trim_space(b);
    if t.is_empty() {
        return (ContentType::Text, Parsed::Nothing);
    }
    if t[0] == b'{' || t[0] == b'[' {
        if !keep {
            if gojson::is_valid(t) {
                return (ContentType::Json, Parsed::Nothing);
            }
        } else if let Ok(v) = gojson::decode_exact(t, gojson::Options::GO) {
            return (ContentType::Json, Parsed::Json(v));
        }
    }
    let mut clock = crate::timings::Clock::new("detect");
    clock.mark("json");
    if looks_terminal(b) {
        return (ContentType::Terminal, Parsed::Nothing);
    }
    clock.mark("terminal");
    let text = go_lossy(b);
    let s: &str = &text;
    // The checks that need valid UTF-8 take it from here rather than
    // validating the input again (CJK validates at ~1 GB/s).
    let valid = match &text {
        Cow::Borrowed(s) => Some(*s),
        Cow::Owned(_) => None,
    };
    if looks_diff(s) {
        return (ContentType::Diff, Parsed::Nothing);
    }
    clock.mark("diff");
    if looks_html(s) {
        return (ContentType::Html, Parsed::Nothing);
    }
    clock.mark("html");
    if keep {
        if let Some(t) = valid
            .and_then(table::parse_text)
            .filter(|t| t.rows.len() >= 8)
        {
            return (ContentType::Tabular, Parsed::Table(t));
        }
    } else if valid.is_some_and(table::looks_tabular) {
        return (ContentType::Tabular, Parsed::Nothing);
    }
    clock.mark("tabular");
    let log = looks_log(s);
    clock.mark("log");
    if !log && looks_code(s) {
        return (ContentType::Code, Parsed::Nothing);
    }
    if log {
        return (ContentType::Log, Parsed::Nothing);
    }
    clock.mark("code");
    if looks_search(s) {
        return (ContentType::SearchResult, Parsed::Nothing);
    }
    clock.mark("search");
    match valid.and_then(config_kind) {
        Some(kind) => (ContentType::Config, Parsed::Config(kind)),
        None => (ContentType::Text, Parsed::Nothing),
    }
}

/// `\x1b\[[0-9;?]*[ -/]*[@-~]` anywhere, or >= 3 bare carriage returns.
fn looks_terminal(b: &[u8]) -> bool {
    let mut i = 0;
    while let Some(off) = memchr::memchr(0x1b, &b[i..]) {
        let mut j = i + off + 1;
        i = j;
        if b.get(j) != Some(&b'[') {
            continue;
        }
        j += 1;
        while j < b.len() && (b[j].is_ascii_digit() || b[j] == b';' || b[j] == b'?') {
            j += 1;
        }
        while j < b.len() && (0x20..=0x2f).contains(&b[j]) {
            j += 1;
        }
        if j < b.len() && (0x40..=0x7e).contains(&b[j]) {
            return true;
        }
    }
    let cr = memchr::memchr_iter(b'\r', b).count();
    let crlf = memchr::memmem::find_iter(b, b"\r\n").count();
    cr - crlf >= 3
}

fn looks_diff(s: &str) -> bool {
    let mut matches = 0;
    for line in s.split('\n') {
        let l = line.as_bytes();
        let hit = l.starts_with(b"diff --git ")
            || l.starts_with(b"@@ ")
            || l.starts_with(b"--- ")
            || l.starts_with(b"+++ ")
            || (l.first().is_some_and(|&c| c == b'+' || c == b'-')
                && match l.get(1) {
                    Some(&c) => c != b'+' && c != b'-',
                    // `[^+-]` may be the newline that ends this line.
                    None => line.as_ptr() as usize + line.len() < s.as_ptr() as usize + s.len(),
                });
        if hit {
            matches += 1;
        }
    }
    if matches < 4 {
        return false;
    }
    s.contains("\n@@ ")
        || s.contains("diff --git ")
        || (s.contains("\n--- ") && s.contains("\n+++ "))
}

fn looks_html(s: &str) -> bool {
    let t = str::trim(s);
    if starts_with_lower(t, "<!doctype html") || starts_with_lower(t, "<html") {
        return true;
    }
    // The tag test needs six `<`; most payloads have fewer.
    if t.bytes().filter(|&b| b == b'<').count() < 6 {
        return false;
    }
    const CODE_CONTAINS: [&str; 3] = ["=>", "className=", "});"];
    const CODE_PREFIX: [&str; 10] = [
        "import ", "export ", "package ", "func ", "def ", "const ", "#include", "#!", "//", "/*",
    ];
    const CODE_LINES: [&str; 7] = [
        "\nimport ",
        "\nexport ",
        "\npackage ",
        "\nfunc ",
        "\ndef ",
        "\nclass ",
        "\nconst ",
    ];
    if CODE_CONTAINS.iter().any(|p| s.contains(p))
        || CODE_PREFIX.iter().any(|p| t.starts_with(p))
        || CODE_LINES.iter().any(|p| s.contains(p))
    {
        return false;
    }
    const TAGS: [&str; 6] = ["<body", "<article", "<main", "<div", "<p>", "<p "];
    TAGS.iter().any(|p| contains_lower(t, p))
}

const CODE_KEYWORDS: [&str; 25] = [
    "func",
    "package",
    "import",
    "def",
    "class",
    "function",
    "return",
    "const",
    "let",
    "var",
    "public",
    "private",
    "protected",
    "static",
    "void",
    "struct",
    "interface",
    "namespace",
    "module",
    "fn",
    "impl",
    "trait",
    "export",
    "async",
    "await",
];

/// Whole-word keyword occurrences (ASCII word characters).
fn keyword_count(s: &str) -> usize {
    ascii_words(s.as_bytes())
        .filter(|w| w.len() <= 9 && CODE_KEYWORDS.iter().any(|k| k.as_bytes() == *w))
        .count()
}

static CODE_STRUCT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(=>|::|->|\)\{|\) \{|;\n|^[\t\n\f\r ]*#include|^[\t\n\f\r ]*from .+ import )")
        .expect("code structure pattern")
});

fn looks_code(s: &str) -> bool {
    let t = str::trim(s);
    if t.starts_with("#!") {
        return true;
    }
    if keyword_count(s) < 3 {
        return false;
    }
    CODE_STRUCT.is_match(s)
        || s.contains('{')
        || (s.contains("def ") && s.contains(':'))
        || s.contains("\n    ")
}

const LEVELS: [&str; 8] = [
    "TRACE", "DEBUG", "INFO", "WARN", "WARNING", "ERROR", "FATAL", "PANIC",
];

#[inline]
fn is_ascii_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0c | b'\r' | b' ')
}

/// `(?i)[A-Z]`: ASCII letters plus the two runes that fold into them.
fn bracket_letters(s: &str) -> Option<usize> {
    let mut n = 0;
    for (i, c) in s.char_indices() {
        if fold(c).is_ascii_lowercase() {
            n += 1;
            continue;
        }
        return if c == ']' && n > 0 { Some(i) } else { None };
    }
    None
}

fn dd(b: &[u8], i: usize) -> bool {
    i + 1 < b.len() && b[i].is_ascii_digit() && b[i + 1].is_ascii_digit()
}

/// `hh:mm:ss` at `i`.
fn hms(b: &[u8], i: usize) -> bool {
    dd(b, i)
        && b.get(i + 2) == Some(&b':')
        && dd(b, i + 3)
        && b.get(i + 5) == Some(&b':')
        && dd(b, i + 6)
}

/// One line against the log pattern (detect.md §8).
fn log_line(line: &str) -> bool {
    let b = line.as_bytes();
    // Level word as a whole ASCII word, any case.
    if ascii_words(b).any(|w| {
        (4..=7).contains(&w.len()) && LEVELS.iter().any(|l| l.as_bytes().eq_ignore_ascii_case(w))
    }) {
        return true;
    }
    // ^\s*\[[A-Z]+\]
    let mut j = 0;
    while j < b.len() && is_ascii_space(b[j]) {
        j += 1;
    }
    if b.get(j) == Some(&b'[') && bracket_letters(&line[j + 1..]).is_some() {
        return true;
    }
    // \d{4}-\d{2}-\d{2}[ Tt]\d{2}:\d{2}:\d{2} anywhere, or \bhh:mm:ss\b.
    for k in 0..b.len() {
        if !b[k].is_ascii_digit() {
            continue;
        }
        if dd(b, k)
            && dd(b, k + 2)
            && b.get(k + 4) == Some(&b'-')
            && dd(b, k + 5)
            && b.get(k + 7) == Some(&b'-')
            && dd(b, k + 8)
            && matches!(b.get(k + 10), Some(b' ' | b'T' | b't'))
            && hms(b, k + 11)
        {
            return true;
        }
        if hms(b, k) && (k == 0 || !is_word(b[k - 1])) && (k + 8 == b.len() || !is_word(b[k + 8])) {
            return true;
        }
    }
    false
}

fn looks_log(s: &str) -> bool {
    let mut total = 0usize;
    let mut matched = 0usize;
    for line in s.split('\n') {
        total += 1;
        if log_line(line) {
            matched += 1;
        }
    }
    total >= 4 && matched >= 3 && 2 * matched >= total
}

/// `^([./~A-Za-z0-9_-][^:\n]{0,240}:\d+(:\d+)?:|https?://\S+)` on one line.
fn search_line(line: &str) -> bool {
    let b = line.as_bytes();
    for scheme in ["http://", "https://"] {
        if let Some(rest) = line.strip_prefix(scheme) {
            if rest.bytes().next().is_some_and(|c| !is_ascii_space(c)) {
                return true;
            }
        }
    }
    match b.first() {
        Some(&c) if c.is_ascii_alphanumeric() || matches!(c, b'.' | b'/' | b'~' | b'_' | b'-') => {}
        _ => return false,
    }
    let rest = &line[1..];
    let Some(colon) = rest.find(':') else {
        return false;
    };
    if rest[..colon].chars().count() > 240 {
        return false;
    }
    let after = &rest.as_bytes()[colon + 1..];
    let digits = after.iter().take_while(|c| c.is_ascii_digit()).count();
    digits > 0 && after.get(digits) == Some(&b':')
}

fn looks_search(s: &str) -> bool {
    let mut total = 0usize;
    let mut matched = 0usize;
    for line in s.split('\n') {
        total += 1;
        if search_line(line) {
            matched += 1;
        }
    }
    total >= 6 && matched >= 4 && 3 * matched >= total
}

static BLOCK_SCALAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r":[\t\n\f\r ]*[|>][0-9+-]*[\t\n\f\r ]*(?:#.*)?$").expect("block scalar pattern")
});
pub(crate) static SECTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^[\t\n\f\r ]*\[[A-Za-z0-9_.:"' -]+\][\t\n\f\r ]*(?:[#;].*)?$"#)
        .expect("section pattern")
});
static ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[\t\n\f\r ]*[A-Za-z0-9_.-]+[\t\n\f\r ]*=[\t\n\f\r ]*[^\t\n\f\r ]")
        .expect("assignment pattern")
});
pub(crate) static YAML_KEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[\t\n\f\r ]*(?:-[\t\n\f\r ]*)?[A-Za-z0-9_.-]+[\t\n\f\r ]*:")
        .expect("yaml key pattern")
});

/// Minimum lines for a config file.
const CONFIG_MIN_LINES: usize = 12;

/// The config parser (detect.md §10): the kind of config `s` is, if it is
/// one. The config compressor classifies with the same function.
pub(crate) fn config_kind(s: &str) -> Option<ConfigKind> {
    if is_blank(s.as_bytes()) {
        return None;
    }
    let body = s.strip_suffix('\n').unwrap_or(s);
    // Counted, not listed (a slice a line is 16 bytes a line).
    if memchr::memchr_iter(b'\n', body.as_bytes()).count() + 1 < CONFIG_MIN_LINES {
        return None;
    }
    let (mut keys, mut assigns, mut sections, mut prose) = (0usize, 0usize, 0usize, 0usize);
    let mut block_scalar = false;
    for line in body.split('\n') {
        let t = str::trim(line);
        if t.is_empty() || t.starts_with('#') || t.starts_with(';') {
            continue;
        }
        if BLOCK_SCALAR.is_match(t) {
            block_scalar = true;
        }
        if SECTION.is_match(t) {
            sections += 1;
        } else if ASSIGNMENT.is_match(t) {
            assigns += 1;
        } else if YAML_KEY.is_match(t) {
            keys += 1;
        } else if t.starts_with("- ") {
        } else {
            prose += 1;
        }
    }
    let significant = keys + assigns + sections + prose;
    if significant == 0 {
        return None;
    }
    if sections >= 2 && assigns >= 4 && prose == 0 && !s.contains("\"\"\"") && !s.contains("'''") {
        return Some(ConfigKind::Toml);
    }
    (keys >= 6
        && 2 * keys >= significant
        && 4 * prose <= significant
        && !block_scalar
        && crate::go::yaml::decodes(s))
    .then_some(ConfigKind::Yaml)
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! detects {
        ($($input:expr => $want:expr),* $(,)?) => {
            $( assert_eq!(detect($input.as_bytes()).as_str(), $want, "input {:?}", $input); )*
        };
    }

    #[test]
    fn quick_reference_table() {
        detects! {
            "" => "text",
            "   \n" => "text",
            " " => "text",
            "  \n{\"a\":1}\n" => "json",
            "[1,2" => "text",
            "<file path=\"a.json\">\n{\"a\": [1,2]}\n</file>" => "json",
            "a\x1b[?25lb" => "terminal",
            "diff --git \n+a\n-b\n+c\n" => "diff",
            "<HTML>" => "html",
            "#include <x>\nint main() { return 0; }\nstatic void f() { return; }\n" => "code",
            "[a] x\n[b] y\n[c] z\nplain\n" => "log",
            "2024-01-02 03:04:05 a\n2024-01-02T03:04:06 b\nx 10:11:12 c\nd\n" => "log",
            "[a]\nx = 1\ny = 2\n[b]\nz = 3\nw = 4\n" => "text",
            "[a]\nx = 1\ny = 2\n[b]\nz = 3\nw = 4\n\n\n\n\n\n\n" => "config",
            "line one\r\nline two\r\nline three\r\n" => "text",
        }
    }

    #[test]
    fn boundaries() {
        detects! {
            "fetch 10%\rfetch 40%\rfetch 80%\rdone\n" => "terminal",
            "a\rb\rc\n" => "text",
            "--- a\n+++ b\n-x\n+y\n" => "text",
            "x\n--- a\n+++ b\n-x\n+y\n" => "diff",
            "<div><p>a</p><p>b</p></div>" => "html",
            "<div><p>a</p><p>b</p></div>\nconst a = 1" => "text",
            "We return the class and import the package." => "text",
            "We return the class and import the package. {x}" => "code",
            "INFO a\nINFO b\nINFO c\n" => "log",
            "12:00:01 a\n12:00:02 b\n12:00:03 c\nq\nr\ns\n" => "text",
        }
        let csv7: String = std::iter::once("a,b\n".to_string())
            .chain((0..6).map(|i| format!("{i},x\n")))
            .collect();
        assert_eq!(detect(csv7.as_bytes()).as_str(), "text");
        let csv8: String = std::iter::once("a,b\n".to_string())
            .chain((0..7).map(|i| format!("{i},x\n")))
            .collect();
        assert_eq!(detect(csv8.as_bytes()).as_str(), "tabular");
        let search: String = (0..6).map(|i| format!("src/a.go:{i}:match\n")).collect();
        assert_eq!(detect(search.as_bytes()).as_str(), "search-result");
        let yaml12: String = "abcdefghijkl"
            .chars()
            .enumerate()
            .map(|(i, c)| format!("{c}: {i}\n"))
            .collect();
        assert_eq!(detect(yaml12.as_bytes()).as_str(), "config");
        let yaml11: String = "abcdefghijk"
            .chars()
            .enumerate()
            .map(|(i, c)| format!("{c}: {i}\n"))
            .collect();
        assert_eq!(detect(yaml11.as_bytes()).as_str(), "text");
    }

    #[test]
    fn unicode_word_boundaries_are_ascii() {
        assert_eq!(keyword_count("éfunc func_x xfunc func"), 2);
    }
}
