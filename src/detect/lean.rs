//! Lean detection: names payloads as a person would. The compat cascade
//! (spec/detect.md) calls configs, build output, grep output and prose
//! `code`; this one tries, in order: JSON and NDJSON; terminal escapes;
//! unified diffs (a hunk or file header, not Markdown rules); HTML
//! documents; `git log`; grep/rg output; CSV/TSV/Markdown and
//! whitespace-aligned or box-drawn tables; configs (YAML, multi-document
//! manifests, TOML, INI, .env); test-runner, compiler, build-tool and
//! package-manager output; logs; prose (Markdown, reStructuredText, man
//! pages, changelogs); source code with its language; else text.
//!
//! Line rules read a sample (the first [`SAMPLE`] lines), so detection
//! costs the same on 64 MiB as on 64 KiB; JSON is decoded whole, as in
//! compat, and hands its tape to the compressor.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::bytes::{Regex, RegexSet};

use super::lang::{self, Language};
use super::{ConfigKind, Detected, Parsed};
use crate::content_type::ContentType;
use crate::go::json as gojson;
use crate::go::unicode::trim_space;
use crate::go::utf8::go_lossy;

/// Lines the line rules read.
const SAMPLE: usize = 2000;

fn found<'a>(ct: ContentType, parsed: Parsed<'a>, rule: &'static str) -> Detected<'a> {
    Detected { ct, parsed, rule }
}

pub(super) fn detect(body: &[u8], keep: bool) -> Detected<'_> {
    let t = trim_space(body);
    if t.is_empty() {
        return found(ContentType::Text, Parsed::Nothing, "the body is blank");
    }
    if t[0] == b'{' || t[0] == b'[' {
        if !keep {
            if gojson::is_valid(t) {
                return found(ContentType::Json, Parsed::Nothing, JSON_RULE);
            }
        } else if let Ok(v) = gojson::decode_exact(t, crate::compress::json::INPUT_ORDER) {
            return found(ContentType::Json, Parsed::Json(v), JSON_RULE);
        }
    }
    let text = go_lossy(body);
    let s: &str = &text;
    let valid = match &text {
        Cow::Borrowed(s) => Some(*s),
        Cow::Owned(_) => None,
    };
    let sample = Sample::of(s);
    if is_ndjson(&sample) {
        return found(
            ContentType::Json,
            Parsed::Nothing,
            "NDJSON: every line is one JSON object or array",
        );
    }
    if super::looks_terminal(body) {
        return found(
            ContentType::Terminal,
            Parsed::Nothing,
            "terminal escapes (ANSI sequences or carriage-return redraws)",
        );
    }
    if looks_diff(&sample) {
        return found(
            ContentType::Diff,
            Parsed::Nothing,
            "a unified diff: file or hunk headers, and most lines are diff lines",
        );
    }
    if looks_html(s) {
        return found(
            ContentType::Html,
            Parsed::Nothing,
            "an HTML document: a doctype or <html> start, or mostly markup lines",
        );
    }
    if looks_git_log(&sample) {
        return found(
            ContentType::Log,
            Parsed::Nothing,
            "git log: commit, Author and Date lines",
        );
    }
    if let Some(t) = valid.and_then(crate::table::parse_text) {
        if t.rows.len() >= 8 && !prose_around_table(&sample) {
            let parsed = if keep {
                Parsed::Table(t)
            } else {
                Parsed::Nothing
            };
            return found(
                ContentType::Tabular,
                parsed,
                "8+ rows of one CSV, TSV or Markdown table",
            );
        }
    }
    if looks_search(&sample) {
        return found(
            ContentType::SearchResult,
            Parsed::Nothing,
            "grep/rg output: most lines are path:line: hits, context lines or file headings",
        );
    }
    if crate::table::aligned::looks_aligned(&sample.lines) {
        return found(
            ContentType::Tabular,
            Parsed::Nothing,
            "a whitespace-aligned or box-drawn table (ls -l, ps, df, kubectl get, docker ps)",
        );
    }
    if let Some((kind, rule)) = valid.and_then(|v| config(v, &sample)) {
        return found(ContentType::Config, Parsed::Config(kind), rule);
    }
    if let Some(rule) = tool_output(&sample) {
        return found(ContentType::Terminal, Parsed::Nothing, rule);
    }
    if looks_log(&sample) {
        return found(
            ContentType::Log,
            Parsed::Nothing,
            "a log: most lines start with a timestamp or carry a level",
        );
    }
    if let Some(l) = lang::shebang(sample.lines.first().copied().unwrap_or("")) {
        return found(ContentType::Code, Parsed::Code(l), code_rule(l));
    }
    if let Some(rule) = prose(&sample) {
        return found(ContentType::Text, Parsed::Nothing, rule);
    }
    if let Some(l) = lang::identify(sample.text) {
        return found(ContentType::Code, Parsed::Code(l), code_rule(l));
    }
    found(ContentType::Text, Parsed::Nothing, "no other rule matched")
}

const JSON_RULE: &str = "the body is one valid JSON object or array";

/// The `--explain` rule for code in `lang`.
pub fn code_rule(l: Language) -> &'static str {
    match l {
        Language::Go => "source code: Go (package, func and type lines)",
        Language::Python => "source code: Python (def/class blocks ending in a colon, imports)",
        Language::JavaScript => "source code: JavaScript (function, require/import, const)",
        Language::TypeScript => "source code: TypeScript (interfaces, type aliases, annotations)",
        Language::Tsx => "source code: TSX (TypeScript with JSX elements)",
        Language::Rust => "source code: Rust (fn, impl, use paths, attributes)",
        Language::Java => "source code: Java (package; import; class members)",
        Language::C => "source code: C (#include, C declarations)",
        Language::Cpp => "source code: C++ (std::, namespaces, templates, access labels)",
        Language::CSharp => "source code: C# (using System; properties with get/set)",
        Language::Ruby => "source code: Ruby (def/end blocks, require, attr_*)",
        Language::Php => "source code: PHP (<?php, $this->)",
        Language::Kotlin => "source code: Kotlin (fun, val/var, data classes)",
        Language::Swift => "source code: Swift (func, guard let, imports of Apple frameworks)",
        Language::Scala => "source code: Scala (object, case class, def … =)",
        Language::Shell => "source code: shell (#! line, fi/done/esac, functions)",
    }
}

/// The first lines of a text, and those lines joined again.
pub(crate) struct Sample<'a> {
    pub lines: Vec<&'a str>,
    /// The sampled prefix of the text.
    pub text: &'a str,
    /// Non-blank sampled lines.
    pub non_blank: usize,
}

impl<'a> Sample<'a> {
    pub fn of(s: &'a str) -> Sample<'a> {
        let mut lines = Vec::new();
        let mut end = 0;
        for l in s.split('\n') {
            if lines.len() == SAMPLE {
                break;
            }
            end += l.len() + 1;
            lines.push(l.strip_suffix('\r').unwrap_or(l));
        }
        let non_blank = lines.iter().filter(|l| !l.trim().is_empty()).count();
        Sample {
            lines,
            text: &s[..end.min(s.len())],
            non_blank,
        }
    }

    fn non_blank_lines(&self) -> impl Iterator<Item = &&'a str> {
        self.lines.iter().filter(|l| !l.trim().is_empty())
    }

    /// Non-blank lines matching `f`.
    fn count(&self, f: impl Fn(&str) -> bool) -> usize {
        self.non_blank_lines().filter(|l| f(l)).count()
    }
}

/// Every non-blank line (2 at least) is a JSON object or array.
fn is_ndjson(s: &Sample<'_>) -> bool {
    if s.non_blank < 2 {
        return false;
    }
    s.non_blank_lines().all(|l| {
        let t = l.trim();
        (t.starts_with('{') || t.starts_with('[')) && gojson::is_valid(t.as_bytes())
    })
}

static HUNK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)^@@ -\d+(,\d+)? \+\d+(,\d+)? @@").expect("hunk pattern"));

/// A file header (`diff --git`, `--- a` followed by `+++ b`) or a real
/// hunk header, and most lines are diff lines: Markdown `---` rules and
/// diffs quoted in prose are not enough.
fn looks_diff(s: &Sample<'_>) -> bool {
    let mut headers = 0;
    let mut diffish = 0;
    let mut prev_minus = false;
    for l in &s.lines {
        let hunk = HUNK.is_match(l.as_bytes());
        let git = l.starts_with("diff --git ") || l.starts_with("diff -");
        if hunk || git || (prev_minus && l.starts_with("+++ ")) {
            headers += 1;
        }
        prev_minus = l.starts_with("--- ");
        if hunk
            || git
            || l.is_empty()
            || matches!(l.as_bytes()[0], b'+' | b'-' | b' ' | b'\\')
            || l.starts_with("index ")
            || l.starts_with("new file mode")
            || l.starts_with("deleted file mode")
            || l.starts_with("old mode")
            || l.starts_with("new mode")
            || l.starts_with("similarity index")
            || l.starts_with("rename ")
            || l.starts_with("Binary files")
        {
            diffish += 1;
        }
    }
    // `git show`/`git format-patch` put a commit header first.
    headers > 0 && diffish * 10 >= s.lines.len() * 7
}

/// An HTML document: a doctype or `<html>` start, or mostly markup.
fn looks_html(s: &str) -> bool {
    let t = s.trim_start_matches('\u{feff}').trim_start();
    let head = &t.as_bytes()[..t.len().min(256)];
    let lower = head.to_ascii_lowercase();
    if lower.starts_with(b"<!doctype html") || lower.starts_with(b"<html") {
        return true;
    }
    if !lower.starts_with(b"<") {
        return false;
    }
    // Starts with a tag and is mostly markup lines (not Markdown with a
    // few inline tags).
    let sample = Sample::of(s);
    let tags = sample.count(|l| l.trim_start().starts_with('<'));
    tags * 2 >= sample.non_blank
        && !lower.starts_with(b"<?xml")
        && [
            "<body", "<div", "<p>", "<p ", "<head", "<article", "<main", "<table", "<a href",
            "<br", "<li", "<span", "<h1", "<h2", "<section", "<form", "<img",
        ]
        .iter()
        .any(|p| super::contains_lower(t, p))
}

static GIT_COMMIT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u)^(\* |\| )*commit [0-9a-f]{7,64}( \(.*\))?$").expect("commit pattern")
});

fn looks_git_log(s: &Sample<'_>) -> bool {
    let commits = s.count(|l| GIT_COMMIT.is_match(l.as_bytes()));
    let authors = s.count(|l| {
        let l = l.trim_start_matches(['*', '|', ' ']);
        l.starts_with("Author: ") || l.starts_with("Date: ") || l.starts_with("Date:   ")
    });
    commits >= 1 && authors >= commits
}

/// grep/rg/ag/git-grep lines: `path:N:text` (or `path:N:col:text`),
/// `path-N-text` context, `path:text` with a file-looking path, `--`
/// separators, and rg --heading's path lines followed by `N:text`.
fn looks_search(s: &Sample<'_>) -> bool {
    let mut hits = 0;
    let mut other = 0;
    let mut heading: Option<&str> = None;
    let mut heading_hits = 0;
    for l in &s.lines {
        if l.trim().is_empty() {
            heading = None;
            continue;
        }
        if *l == "--" {
            continue;
        }
        match search_line(l) {
            SearchLine::Hit => hits += 1,
            SearchLine::Context => {}
            SearchLine::Other => {
                if heading.is_some() && heading_hit(l) {
                    heading_hits += 1;
                } else if looks_path(l) {
                    heading = Some(l);
                } else {
                    other += 1;
                }
            }
        }
    }
    let total = hits + heading_hits;
    if total >= 3 && total * 2 > other * 3 {
        return true;
    }
    // `grep -l`, `find`, `fd` and URL lists: every line a path or a URL.
    let listed = s.count(|l| looks_path(l.trim_end()) || is_url(l.trim_end()));
    listed >= 3 && listed * 10 >= s.non_blank * 9
}

fn is_url(l: &str) -> bool {
    (l.starts_with("https://") || l.starts_with("http://")) && !l.contains(char::is_whitespace)
}

#[derive(Debug, PartialEq, Eq)]
pub(crate) enum SearchLine {
    Hit,
    Context,
    Other,
}

/// One line of grep output: a hit (`path:N:` or `path:` with a file
/// path), a context line (`path-N-`), or something else.
pub(crate) fn search_line(l: &str) -> SearchLine {
    let b = l.as_bytes();
    if b.is_empty() || b[0].is_ascii_whitespace() || b[0] == b':' {
        return SearchLine::Other;
    }
    // `git grep REV` prefixes `REV:`.
    let start = l
        .find(':')
        .filter(|&c| {
            c <= 41
                && l[..c]
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'^' || c == b'~')
                && l[c + 1..]
                    .find(':')
                    .is_some_and(|d| looks_path(&l[c + 1..c + 1 + d]))
        })
        .map_or(0, |c| c + 1);
    let rest = &l[start..];
    // path:N: (the path may hold no ':'; it stops at the first ':').
    if let Some(colon) = rest.find(':') {
        let path = &rest[..colon];
        let after = &rest.as_bytes()[colon + 1..];
        let digits = after.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits > 0 && after.get(digits) == Some(&b':') && file_like(path) {
            return SearchLine::Hit;
        }
        if digits == 0 && looks_path(path) && (path.contains('/') || has_extension(path)) {
            return SearchLine::Hit;
        }
    }
    // path-N- context: the last `-N-` whose prefix is a path.
    let mut from = 0;
    while let Some(k) = rest[from..].find('-') {
        let k = from + k;
        let after = &rest.as_bytes()[k + 1..];
        let digits = after.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits > 0 && after.get(digits) == Some(&b'-') && file_like(&rest[..k]) {
            return SearchLine::Context;
        }
        from = k + 1;
    }
    SearchLine::Other
}

/// A path as grep prints it: no spaces, no control characters, short.
fn path_like(p: &str) -> bool {
    !p.is_empty()
        && p.len() < 300
        && !p.bytes().any(|c| c == b' ' || c == b'\t' || c < 0x20)
        && !p.starts_with("http")
        && p.bytes().any(|c| c.is_ascii_alphanumeric())
}

/// A path that names a file: path-like, with a directory or an extension.
fn file_like(p: &str) -> bool {
    path_like(p) && (p.contains('/') || has_extension(p)) && !p.contains(',')
}

fn has_extension(p: &str) -> bool {
    match p.rfind('.') {
        Some(d) => {
            let ext = &p[d + 1..];
            (1..=8).contains(&ext.len()) && ext.bytes().all(|c| c.is_ascii_alphanumeric()) && d > 0
        }
        None => false,
    }
}

/// A line that names a file (rg --heading's path line, `grep -l`).
pub(crate) fn looks_path(l: &str) -> bool {
    file_like(l) && !l.contains(':') && l.bytes().any(|b| b.is_ascii_alphabetic())
}

/// rg --heading's hit line: `N:text` or `N-text`.
fn heading_hit(l: &str) -> bool {
    let b = l.as_bytes();
    let d = b.iter().take_while(|c| c.is_ascii_digit()).count();
    d > 0 && matches!(b.get(d), Some(b':') | Some(b'-'))
}

/// A Markdown document whose table is one part among prose.
fn prose_around_table(s: &Sample<'_>) -> bool {
    let table = s.count(|l| l.trim_start().starts_with('|'));
    let prose = s.count(|l| !l.trim_start().starts_with('|'));
    table > 0 && prose * 3 > table
}

static SECTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?-u)^\[\[?[A-Za-z0-9_.:"' *-]+\]\]?\s*([#;].*)?$"#).expect("section pattern")
});
static ASSIGN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?-u)^(export )?[A-Za-z0-9_."'*-]+([A-Za-z0-9_."' -]*[A-Za-z0-9_"'])?\s*[=:]"#)
        .expect("assignment pattern")
});
static ENV_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?-u)^(export )?[A-Za-z_][A-Za-z0-9_]*=("[^"]*"|'[^']*'|[^\s"'#]*)\s*(#.*)?$"#)
        .expect("env pattern")
});

/// A config file: YAML (one or more documents) that decodes and is mostly
/// keys; TOML/INI (sections and assignments, continuation lines); .env.
fn config(v: &str, s: &Sample<'_>) -> Option<(ConfigKind, &'static str)> {
    if s.non_blank < 3 {
        return None;
    }
    if let Some(rule) = ini_like(s) {
        return Some((ConfigKind::Toml, rule));
    }
    yaml_like(v, s).map(|rule| (ConfigKind::Yaml, rule))
}

fn ini_like(s: &Sample<'_>) -> Option<&'static str> {
    let (mut sections, mut assigns, mut env, mut other, mut cont) = (0, 0, 0, 0, 0);
    let mut depth: i32 = 0;
    let mut in_multiline = false;
    let mut last_was_key = false;
    for l in &s.lines {
        let t = l.trim();
        if in_multiline {
            if t.contains("\"\"\"") || t.contains("'''") {
                in_multiline = false;
            }
            continue;
        }
        if t.is_empty() || t.starts_with('#') || t.starts_with(';') {
            continue;
        }
        if depth > 0 {
            depth += brackets(t);
            continue;
        }
        let indented = l.starts_with([' ', '\t']);
        if SECTION.is_match(t.as_bytes()) && !indented {
            sections += 1;
            last_was_key = false;
        } else if ASSIGN.is_match(t.as_bytes()) && !indented && !t.ends_with(':') {
            assigns += 1;
            if ENV_LINE.is_match(t.as_bytes()) {
                env += 1;
            }
            let value = t.split_once(['=', ':']).map_or("", |x| x.1);
            depth = brackets(value).max(0);
            let q = value.matches("\"\"\"").count() + value.matches("'''").count();
            in_multiline = q % 2 == 1;
            last_was_key = true;
        } else if indented && last_was_key {
            // INI continuation lines (setup.cfg, tox.ini).
            cont += 1;
        } else {
            other += 1;
        }
    }
    let _ = cont;
    let keys = sections + assigns;
    if other * 10 > keys {
        return None;
    }
    if sections >= 1 && assigns >= 2 {
        return Some("TOML/INI: [sections] and key = value lines");
    }
    if assigns >= 3 && env == assigns {
        return Some(".env: NAME=value lines");
    }
    None
}

/// Net opening brackets of a TOML value (arrays and inline tables that
/// continue on the next lines), ignoring those inside strings.
fn brackets(v: &str) -> i32 {
    let mut d = 0;
    let mut quote = None;
    for c in v.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '#') => break,
            (None, '[' | '{') => d += 1,
            (None, ']' | '}') => d -= 1,
            _ => {}
        }
    }
    d
}

static YAML_KEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?-u)^\s*(- )?("[^"]*"|'[^']*'|[A-Za-z0-9_.$/@-][^:#]*?)\s*:(\s|$)"#)
        .expect("yaml key pattern")
});

fn yaml_like(v: &str, s: &Sample<'_>) -> Option<&'static str> {
    let mut keys = 0;
    let mut items = 0;
    let mut other = 0;
    let mut docs = 0;
    let mut block: Option<usize> = None;
    for l in &s.lines {
        let t = l.trim();
        let indent = l.len() - l.trim_start().len();
        if let Some(b) = block {
            if t.is_empty() || indent > b {
                continue;
            }
            block = None;
        }
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if t == "---" || t == "..." {
            docs += 1;
            continue;
        }
        if YAML_KEY.is_match(l.as_bytes()) {
            keys += 1;
            let after = t.rsplit_once(':').map_or("", |x| x.1).trim();
            if after.starts_with('|') || after.starts_with('>') {
                block = Some(indent);
            }
        } else if t.starts_with("- ") || t == "-" {
            items += 1;
        } else if t.starts_with("{{") || t.starts_with("{%") {
            // Helm and Jinja templating inside YAML.
            keys += 1;
        } else {
            other += 1;
        }
    }
    let significant = keys + items + other;
    if keys < 3 || keys * 2 < significant || other * 5 > significant {
        return None;
    }
    let templated = v.contains("{{");
    if templated {
        return Some("YAML with template expressions (Helm/Jinja): mostly key: value lines");
    }
    // yaml.v3's decoder reads a stream: one check for one or many documents.
    if !crate::go::yaml::decodes(v) {
        return None;
    }
    Some(if docs > 0 {
        "YAML documents (---) that decode, mostly key: value lines"
    } else {
        "YAML that decodes, mostly key: value lines"
    })
}

/// Lines that only test runners, compilers, build tools and package
/// managers print, by tool.
const TOOL_PATTERNS: &[(&str, &str)] = &[
    // pytest
    (
        "pytest",
        r"^=+ (test session starts|FAILURES|ERRORS|short test summary info|warnings summary|PASSES)\b.*=+$",
    ),
    (
        "pytest",
        r"^=+ .*\b(passed|failed|error|errors|skipped|xfailed|xpassed|deselected)\b.* in [\d.]+s.*=+$",
    ),
    (
        "pytest",
        r"^\S+\.py::\S+ (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b",
    ),
    (
        "pytest",
        r"^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) \S+\.py::",
    ),
    (
        "pytest",
        r"^(platform \w+ -- Python|rootdir: |collected \d+ items?|collecting \.\.\.)",
    ),
    ("pytest", r"^_{3,} .+ _{3,}$"),
    ("pytest", r"^\S+\.py [.FEsxX]+\s+\[\s*\d+%\]$"),
    // go test
    ("go test", r"^=== (RUN|PAUSE|CONT|NAME)\s+\S+"),
    ("go test", r"^\s*--- (PASS|FAIL|SKIP): \S+ \("),
    (
        "go test",
        r"^(ok|FAIL|\?)\s+\S+\s+(\(cached\)|[\d.]+s|\[no test files\])",
    ),
    (
        "go test",
        r"^\s*(PASS|FAIL|SKIP|EMPTY) (Package )?\S+( \(.*\))?$",
    ),
    ("go test", r"^(DONE|PASS|FAIL) \d+ tests?"),
    ("go test", r"^::(group|endgroup|error|warning)::"),
    // cargo / rustc
    (
        "cargo",
        r"^\s+(Compiling|Checking|Finished|Running|Downloaded|Downloading|Updating|Locking|Adding|Fresh|Documenting|Doc-tests|Installing|Installed|Packaging|Verifying|Uploading|Blocking|Removing) \S",
    ),
    ("cargo", r"^(error|warning)(\[E\d{4}\])?: "),
    ("cargo", r"^\s*--> [^\s:]+:\d+:\d+$"),
    ("cargo", r"^test \S+ \.\.\. (ok|FAILED|ignored|bench)"),
    ("cargo", r"^test result: (ok|FAILED)\. \d+ passed"),
    ("cargo", r"^running \d+ tests?$"),
    // jest / mocha / vitest
    ("jest", r"^\s*(PASS|FAIL) \S+\.(js|ts|jsx|tsx|mjs|cjs)\b"),
    ("jest", r"^(Tests|Test Suites|Snapshots):\s+\d+"),
    ("jest", r"^\s*(✓|✔|✕|✗|×|√) "),
    ("jest", r"^\s*\d+ (passing|failing|pending) \("),
    // maven / gradle
    ("maven", r"^\[(INFO|WARNING|WARN|ERROR|DEBUG)\] "),
    ("maven", r"BUILD (SUCCESS|FAILURE|SUCCESSFUL|FAILED)"),
    ("gradle", r"^> Task :\S+"),
    // make / compilers
    ("make", r"^make(\[\d+\])?: "),
    (
        "make",
        r"^\S+\.(c|cc|cpp|h|hpp|go|rs|java|ts|py|m|swift):\d+:\d+: (error|warning|note): ",
    ),
    (
        "make",
        r"^\s*(gcc|g\+\+|cc|c\+\+|clang|clang\+\+|ld|ar|javac|tsc) \S",
    ),
    ("make", r"^\s*(CC|CXX|LD|AR|CCLD|GEN)\s+\S"),
    // npm / yarn / pnpm
    ("npm", r"^npm (ERR!|WARN|notice|warn|error|http)"),
    ("npm", r"^(added|removed|changed|audited) \d+ packages?"),
    ("npm", r"^(up to date|found \d+ vulnerabilit)"),
    ("yarn", r"^\[\d+/\d+\] |^yarn (install|run|add) v"),
    // pip
    (
        "pip",
        r"^\s*(Collecting|Downloading|Requirement already satisfied|Installing collected packages|Successfully installed|Successfully built|Building wheels? for|Using cached|Obtaining|Preparing metadata|Attempting uninstall|Found existing installation|Uninstalling|Created wheel for|Stored in directory|Processing) ",
    ),
    // docker build
    ("docker build", r"^Step \d+/\d+ : "),
    (
        "docker build",
        r"^#\d+ (\[internal\]|\[[\w-]* ?\d+/\d+\]|DONE [\d.]+s|CACHED|ERROR|sha256:|extracting|resolve|transferring)",
    ),
    ("docker build", r"^ ---> "),
    (
        "docker build",
        r"^(Successfully (built|tagged)|Sending build context)",
    ),
    // apt / dpkg
    ("apt", r"^(Get|Hit|Ign|Err):\d+ "),
    (
        "apt",
        r"^(Reading package lists|Building dependency tree|Reading state information|Setting up |Unpacking |Selecting previously unselected|Preparing to unpack|Processing triggers for)",
    ),
    // jtreg / generic test reports
    (
        "test report",
        r"^(Passed|Failed|FAILED|Error): \S+\.(java|sh|py|js|ts)",
    ),
    ("test report", r"^(Test results|Tests run): "),
    // a shell prompt line
    ("shell session", r"^\$ \S"),
];

static TOOL_SET: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSet::new(TOOL_PATTERNS.iter().map(|p| format!("(?-u){}", p.1)))
        .expect("tool output patterns")
});

/// The rule for output of a tool (test runner, compiler, build tool,
/// package manager), when enough lines are ones only such tools print.
fn tool_output(s: &Sample<'_>) -> Option<&'static str> {
    let mut n = 0;
    let mut by_tool: Vec<(&'static str, usize)> = Vec::new();
    for l in s.non_blank_lines() {
        if l.len() > 1000 {
            continue;
        }
        let m = TOOL_SET.matches(l.as_bytes());
        if let Some(i) = m.iter().next() {
            n += 1;
            let tool = TOOL_PATTERNS[i].0;
            match by_tool.iter_mut().find(|t| t.0 == tool) {
                Some(t) => t.1 += 1,
                None => by_tool.push((tool, 1)),
            }
        }
    }
    let strong = by_tool.iter().any(|t| t.0 != "shell session" && t.1 >= 2);
    if !(strong && (n * 8 >= s.non_blank || n >= 12)) {
        return None;
    }
    let top = by_tool.iter().max_by_key(|t| t.1).map_or("", |t| t.0);
    Some(match top {
        "pytest" => "test-runner output: pytest",
        "go test" => "test-runner output: go test / gotestsum",
        "cargo" => "compiler and build output: cargo/rustc",
        "jest" => "test-runner output: jest/mocha/vitest",
        "maven" => "build-tool output: maven",
        "gradle" => "build-tool output: gradle",
        "make" => "build output: make and compilers",
        "npm" => "package-manager output: npm",
        "yarn" => "package-manager output: yarn",
        "pip" => "package-manager output: pip",
        "docker build" => "build output: docker build",
        "apt" => "package-manager output: apt/dpkg",
        "test report" => "test-runner output: a test report",
        _ => "output of a command-line tool",
    })
}

static TIMESTAMP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?-u)^[\[(<]?\s*(",
        r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?",
        r"|\d{4}/\d{2}/\d{2}[ T]\d{2}:\d{2}",
        r"|\d{2}/\d{2}/\d{4}[ T]\d{2}:\d{2}",
        r"|\d{2}-\d{2} \d{2}:\d{2}:\d{2}",
        r"|\d{2}/\d{2}/\d{2} \d{2}:\d{2}:\d{2}",
        r"|\d{2}/[A-Z][a-z]{2}/\d{4}:\d{2}:\d{2}",
        r"|(Mon|Tue|Wed|Thu|Fri|Sat|Sun),? ",
        r"|(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}",
        r"|\d{8}[ T-]\d{2}:?\d{2}",
        r"|\d{10}(\.\d+)?\b",
        r"|\d{2}:\d{2}:\d{2}",
        r"|\d+\.\d{3,}\s",
        r"|(TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL|SEVERE)\b",
        r"|[IWEF]\d{4} \d{2}:\d{2}",
        r"|[VDIWEF]/\w",
        r")"
    ))
    .expect("log timestamp pattern")
});

/// Log lines: most lines start with a timestamp (many formats) or a
/// level, or carry one as compat's rule reads it, or a log-shaped record
/// (syslog, Apache, W3C, Zeek, numbered records).
fn looks_log(s: &Sample<'_>) -> bool {
    if s.non_blank < 3 {
        return false;
    }
    let stamped = s.count(|l| TIMESTAMP.is_match(l.trim_start().as_bytes()) || super::log_line(l));
    // Continuation lines (stack traces) sit between stamped records.
    stamped * 2 >= s.non_blank
        || (stamped >= 3 && stamped * 4 >= s.non_blank && starts_stamped(s))
        || (record_stream(s) && lang::identify(s.text).is_none())
}

/// Many lines of few shapes (strace, numbered event records, access
/// logs without a leading timestamp): the first four words of a line,
/// with every word that holds a digit or a quote as a wildcard, take few
/// distinct values, and each names something.
fn record_stream(s: &Sample<'_>) -> bool {
    if s.non_blank < 20 {
        return false;
    }
    let mut keys = rustc_hash::FxHashSet::default();
    let mut unnamed = 0;
    for l in s.non_blank_lines() {
        let key = shape(l, 3);
        if !key.bytes().any(|b| b.is_ascii_alphabetic()) {
            unnamed += 1;
        }
        keys.insert(key);
    }
    unnamed * 5 <= s.non_blank && keys.len() * 5 <= s.non_blank
}

fn starts_stamped(s: &Sample<'_>) -> bool {
    s.non_blank_lines()
        .find(|l| !l.starts_with('#'))
        .is_some_and(|l| TIMESTAMP.is_match(l.as_bytes()))
}

static MD_HEADING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)^#{1,6} \S").expect("markdown heading"));
static RST_UNDERLINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)^([=\-~^`'#*+]){3,}\s*$").expect("rst underline"));
static MD_LIST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)^\s*([-*+]|\d{1,3}[.)]) \S").expect("list item"));
static MAN_SECTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u)^(NAME|SYNOPSIS|DESCRIPTION|OPTIONS|EXAMPLES|SEE ALSO|ENVIRONMENT|EXIT STATUS|FILES|BUGS|AUTHORS?)\s*$")
        .expect("man section")
});

/// A prose line: words, mostly letters, not code punctuation.
fn prose_line(l: &str) -> bool {
    let t = l.trim();
    if t.len() < 20 {
        return false;
    }
    let words = t.split_whitespace().count();
    if words < 4 {
        return false;
    }
    let letters = t.chars().filter(|c| c.is_alphabetic() || *c == ' ').count();
    let code = t
        .chars()
        .filter(|c| matches!(c, '{' | '}' | ';' | '=' | '(' | ')' | '<' | '>' | '$'))
        .count();
    letters * 10 >= t.chars().count() * 7 && code * 20 <= t.len()
}

/// The shape of a line's first `words` words: digit runs become `#`,
/// quoted text is emptied.
fn shape(l: &str, words: usize) -> String {
    let mut key = String::new();
    for w in l.split_whitespace().take(words) {
        let mut quote = None;
        let mut digits = false;
        for c in w.chars() {
            match (quote, c) {
                (Some(q), c) if c == q => {
                    quote = None;
                    key.push(c);
                }
                (Some(_), _) => {}
                (None, '"' | '\'') => {
                    quote = Some(c);
                    key.push(c);
                }
                (None, c) if c.is_ascii_digit() => {
                    if !digits {
                        key.push('#');
                    }
                    digits = true;
                    continue;
                }
                (None, c) => key.push(c),
            }
            digits = false;
        }
        key.push(' ');
    }
    key
}

/// A line that reads as a statement or declaration of source code.
fn code_line(t: &str) -> bool {
    const ENDS: [&str; 10] = [";", "{", "}", ")", "(", ",", "[", "]", "=>", "->"];
    const STARTS: [&str; 24] = [
        "def ", "class ", "import ", "from ", "return", "if ", "if(", "for ", "while ", "fn ",
        "let ", "const ", "var ", "func ", "package ", "#include", "#define", "#if", "public ",
        "private ", "static ", "struct ", "end", "else",
    ];
    ENDS.iter().any(|e| t.ends_with(e))
        || STARTS.iter().any(|p| t.starts_with(p))
        || t.starts_with('}')
        || t.starts_with(')')
        || (t.ends_with(':') && !t.contains(' '))
}

/// C preprocessor lines written `# define`, which are not headings.
fn preprocessor(t: &str) -> bool {
    let Some(rest) = t.strip_prefix('#') else {
        return false;
    };
    let word = rest
        .trim_start()
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("");
    matches!(
        word,
        "define"
            | "include"
            | "if"
            | "ifdef"
            | "ifndef"
            | "endif"
            | "else"
            | "elif"
            | "undef"
            | "error"
            | "pragma"
            | "line"
            | "warning"
    )
}

/// Prose documents: Markdown, reStructuredText, man pages, changelogs.
/// Comments and docstrings of source code are not prose: they are
/// skipped, and the lines left must read as text rather than code.
fn prose(s: &Sample<'_>) -> Option<&'static str> {
    let mut fence = false;
    let mut block_comment = false;
    let mut docstring: Option<&str> = None;
    let (mut headings, mut prose, mut lists, mut other, mut fenced, mut code) = (0, 0, 0, 0, 0, 0);
    let mut rst = 0;
    let mut man = 0;
    let mut prev = "";
    for l in &s.lines {
        let t = l.trim();
        if let Some(q) = docstring {
            if t.contains(q) {
                docstring = None;
            }
            continue;
        }
        if block_comment {
            if t.contains("*/") {
                block_comment = false;
            }
            continue;
        }
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = !fence;
            fenced += 1;
            prev = l;
            continue;
        }
        if fence {
            fenced += 1;
            prev = l;
            continue;
        }
        if t.is_empty() {
            prev = l;
            continue;
        }
        if t.starts_with("/*") {
            block_comment = !t.contains("*/");
            other += 1;
            continue;
        }
        for q in ["\"\"\"", "\'\'\'"] {
            if t.contains(q) && t.matches(q).count() % 2 == 1 {
                docstring = Some(q);
            }
        }
        if docstring.is_some() {
            code += 1;
            continue;
        }
        if t.starts_with("//") || t.starts_with("* ") || t == "*" || preprocessor(t) {
            other += 1;
        } else if MD_HEADING.is_match(l.as_bytes()) {
            headings += 1;
        } else if RST_UNDERLINE.is_match(l.as_bytes()) && !prev.trim().is_empty() {
            rst += 1;
            headings += 1;
        } else if t.starts_with(".. ") || t.starts_with(".TH ") || t.starts_with(".SH ") {
            rst += 1;
        } else if MAN_SECTION.is_match(l.as_bytes()) {
            man += 1;
        } else if MD_LIST.is_match(l.as_bytes()) {
            lists += 1;
        } else if prose_line(l) {
            prose += 1;
        } else if code_line(t) {
            code += 1;
        } else {
            other += 1;
        }
        prev = l;
    }
    if man >= 3 {
        return Some("a manual page: NAME, SYNOPSIS, DESCRIPTION sections");
    }
    let text_lines = headings + prose + lists;
    if text_lines < 2 || prose + lists < 2 || code * 2 > text_lines {
        return None;
    }
    // Markdown's badges, links and inline HTML are neither prose nor code.
    if text_lines < other && !(fenced >= 2 && prose >= 3) {
        return None;
    }
    if rst >= 2 {
        return Some("reStructuredText: underlined titles and directives");
    }
    if headings >= 1 || fenced >= 2 {
        return Some("Markdown or a changelog: headings, fenced blocks, prose and lists");
    }
    if prose * 2 >= text_lines + other {
        return Some("prose: most lines are sentences");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lean(s: &str) -> String {
        detect(s.as_bytes(), false).ct.to_string()
    }

    #[test]
    fn names_what_a_person_would() {
        let cases: &[(&str, &str)] = &[
            ("{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n", "json"),
            ("[tool]\nname = \"x\"\nversion = \"1\"\n\n[deps]\na = \"1\"\n", "config"),
            ("root = true\n\n[*]\nindent_style = space\nindent_size = 2\n", "config"),
            ("A=1\nB=two\nexport C=3\n", "config"),
            ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: b\n", "config"),
            ("src/a.rs:10:fn x() {}\nsrc/a.rs:12:fn y() {}\nsrc/b.rs:3:let z = 1;\n", "search-result"),
            ("src/a.rs\n10:fn x() {}\n12:fn y() {}\n\nsrc/b.rs\n3:let z = 1;\n", "search-result"),
            ("# Title\n\nSome prose that explains what this thing does here.\n\n## Usage\n\n- one item of the list\n- another\n\n---\n\nMore text that reads as a sentence, to be sure.\n", "text"),
            ("=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n--- FAIL: TestB (0.01s)\nFAIL\nFAIL\texample.com/x\t0.02s\n", "terminal"),
            ("   Compiling a v0.1.0 (/x)\nwarning: unused variable: `x`\n --> src/main.rs:2:9\n    Finished `dev` profile target(s) in 0.5s\n", "terminal"),
            ("commit 0123456789abcdef0123456789abcdef01234567\nAuthor: A <a@b>\nDate:   Mon Jan 1 00:00:00 2024 +0000\n\n    msg\n", "log"),
            ("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n", "diff"),
        ];
        for (input, want) in cases {
            assert_eq!(lean(input), *want, "{input}");
        }
    }

    #[test]
    fn markdown_rules_are_not_a_diff() {
        let md = "# A\n\nText of the first part, written as a sentence.\n\n---\n\n- item one\n- item two\n+ item three\n\n---\n\nMore text that reads as a sentence too.\n";
        assert_eq!(lean(md), "text");
    }

    #[test]
    fn search_lines() {
        assert_eq!(search_line("src/a.go:12:x"), SearchLine::Hit);
        assert_eq!(search_line("HEAD:src/a.go:12:x"), SearchLine::Hit);
        assert_eq!(search_line("src/a-b.go-12-x"), SearchLine::Context);
        assert_eq!(search_line("src/a.go:x"), SearchLine::Hit);
        assert_eq!(search_line("hello: world"), SearchLine::Other);
    }
}
