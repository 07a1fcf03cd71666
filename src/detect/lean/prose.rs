//! Prose documents: Markdown, reStructuredText, man pages, changelogs.

use std::sync::LazyLock;

use crate::rx::Regex;

use super::{share, Ctx, Hit, Sample};
use crate::ascii_first::AsciiFirst;
use crate::content_type::ContentType;

/// A Markdown document whose table is one part among prose.
pub(super) fn around_table(s: &Sample<'_>) -> bool {
    let table = s.count(|l| l.trim_start().starts_with('|'));
    let prose = s.count(|l| !l.trim_start().starts_with('|'));
    table > 0 && prose * 3 > table
}

static MD_HEADING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)^#{1,6} \S").expect("markdown heading"));
static RST_UNDERLINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u)^(={3,}|-{3,}|~{3,}|\^{3,}|`{3,}|'{3,}|#{3,}|\*{3,}|\+{3,})\s*$")
        .expect("rst underline")
});

/// A Markdown code fence: ``` or ~~~ and at most an info word.
fn fence_line(t: &str) -> bool {
    let rest = t
        .strip_prefix("```")
        .or_else(|| t.strip_prefix("~~~"))
        .map(|r| r.trim_start_matches(['`', '~']).trim());
    rest.is_some_and(|r| {
        r.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'-' | b'.' | b'{' | b'}' | b'=')
        })
    })
}
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
    // Columns padded with runs of spaces are a table's row, not a sentence.
    if words < 4 || t.matches("   ").count() >= 2 {
        return false;
    }
    let letters = t.chars().filter(|c| c.is_alphabetic() || *c == ' ').count();
    let code = t
        .chars()
        .filter(|c| matches!(c, '{' | '}' | ';' | '=' | '(' | ')' | '<' | '>' | '$'))
        .count();
    letters * 10 >= t.chars().count() * 7 && code * 20 <= t.len()
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
pub(super) fn prose<'b>(ctx: &Ctx<'b, '_>) -> Option<Hit<'b>> {
    let s = &ctx.sample;
    let (rule, explained) = prose_rule(s)?;
    Some(Hit::new(
        ContentType::Text,
        rule,
        share(explained, s.non_blank),
    ))
}

/// The share of a sample's lines that read as source code: statements,
/// declarations, comments, indented lines.
pub(super) fn code_share(s: &Sample<'_>) -> u32 {
    let code = s.count(|l| {
        let t = l.trim();
        super::search_line(l) != super::SearchLine::Hit && code_line(t)
            || l.starts_with([' ', '\t'])
            || t.starts_with("//")
            || t.starts_with("/*")
            || t.starts_with("* ")
            || t.starts_with("# ")
            || t.starts_with("#!")
            || preprocessor(t)
            || t.starts_with('@')
    });
    share(code, s.non_blank)
}

/// A changelog's version header: `## [1.2.0] - 2024-01-01`, `1.2.0
/// (2024-01-01)`, `Version 1.2.0`, `v1.2.0`, `Noteworthy changes in
/// release 9.5`: a short unindented line that starts with a version or
/// names a release or version.
static VERSION_HEADER: AsciiFirst = AsciiFirst::new(
    r"(?i)^(#+\s*)?(\[?v?\d+\.\d+(\.\d+)?([-.+]\w+)*\]?(\s*[-(:]\s*.*)?|.{0,40}\b(version|release|changes in|new in)\s+v?\d+\.\d+.*)$",
);

/// A man page's title line: `LS(1)   User Commands   LS(1)`.
static MAN_TITLE: AsciiFirst =
    AsciiFirst::new(r"^[A-Za-z0-9_.:-]+\(\d[a-z]*\)\s{2,}.*\s{2,}[A-Za-z0-9_.:-]+\(\d[a-z]*\)\s*$");

/// The prose rule that holds and how many lines it explains.
fn prose_rule(s: &Sample<'_>) -> Option<(&'static str, usize)> {
    let mut fence = false;
    let mut block_comment = false;
    let mut docstring: Option<&str> = None;
    let (mut headings, mut prose, mut lists, mut other, mut fenced, mut code) = (0, 0, 0, 0, 0, 0);
    let mut rst = 0;
    let mut man = 0;
    let mut versions = 0;
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
        if fence_line(t) {
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
        } else if MAN_SECTION.is_match(l.as_bytes()) || MAN_TITLE.is_match(l) {
            man += 1;
        } else if VERSION_HEADER.is_match(l) && t.len() < 80 {
            versions += 1;
            headings += 1;
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
    let text_lines = headings + prose + lists;
    let explained = text_lines + fenced + man + rst;
    if man >= 3 {
        // A man page's option lines and indented paragraphs are its own.
        let indented = s.count(|l| l.starts_with("   "));
        return Some((
            "a manual page: NAME, SYNOPSIS, DESCRIPTION sections",
            explained + indented,
        ));
    }
    if text_lines < 2 || prose + lists < 2 || code * 2 > text_lines {
        return None;
    }
    // Markdown's badges, links and inline HTML are neither prose nor code.
    if text_lines < other && !(fenced >= 2 && prose >= 3) {
        return None;
    }
    if rst >= 2 {
        return Some((
            "reStructuredText: underlined titles and directives",
            explained,
        ));
    }
    if versions >= 2 {
        return Some(("a changelog: version headers with their items", explained));
    }
    if headings >= 1 || fenced >= 2 {
        return Some((
            "Markdown or a changelog: headings, fenced blocks, prose and lists",
            explained,
        ));
    }
    if prose * 2 >= text_lines + other {
        return Some(("prose: most lines are sentences", explained));
    }
    None
}
