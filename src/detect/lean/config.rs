//! Config files: TOML/INI, .env, YAML.

use std::sync::LazyLock;

use crate::rx::Regex;

use super::{share, Ctx, Hit, Sample};
use crate::content_type::ContentType;
use crate::detect::{ConfigKind, Parsed};

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

/// A config file: TOML/INI (sections and assignments, continuation
/// lines), .env, Java properties, or YAML (one or more documents) that
/// decodes and is mostly keys. Its score is the share of lines that are
/// its keys, sections, items and continuations.
pub(super) fn config<'b>(ctx: &Ctx<'b, '_>) -> Option<Hit<'b>> {
    let s = &ctx.sample;
    let v = ctx.valid?;
    if s.non_blank < 3 {
        return None;
    }
    if let Some((rule, explained)) = ini_like(s) {
        return Some(
            Hit::new(ContentType::Config, rule, share(explained, s.non_blank))
                .with(Parsed::Config(ConfigKind::Toml)),
        );
    }
    let (rule, explained) = yaml_like(v, s)?;
    Some(
        Hit::new(ContentType::Config, rule, share(explained, s.non_blank))
            .with(Parsed::Config(ConfigKind::Yaml)),
    )
}

/// Whether what reads as a key before `=` or `:` is a log record's head:
/// a date and a time (`07.12.2026 14:02:11 [INFO] …`: a key starting in a
/// digit with a space in it), or a source position (`history.go:56:
/// [debug] …`, a time `14:02:11`: digits between two colons).
fn log_record_head(t: &str) -> bool {
    let Some(at) = t.find(['=', ':']) else {
        return false;
    };
    let key = &t[..at];
    if key.starts_with(|c: char| c.is_ascii_digit()) && key.contains(' ') {
        return true;
    }
    let rest = &t.as_bytes()[at + 1..];
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    t.as_bytes()[at] == b':' && digits > 0 && rest.get(digits) == Some(&b':')
}

/// The level words a .NET console logger (`info: Category[7]`) and
/// others begin a record with: keys of no config.
const LEVEL_KEYS: [&str; 12] = [
    "trce", "dbug", "info", "warn", "fail", "crit", "trace", "debug", "warning", "error", "fatal",
    "critical",
];

/// TOML, INI, .env or properties: the rule and the lines it explains.
fn ini_like(s: &Sample<'_>) -> Option<(&'static str, usize)> {
    let (mut sections, mut assigns, mut env, mut other, mut cont) = (0, 0, 0, 0, 0);
    let (mut comments, mut inner, mut dotted) = (0, 0, 0);
    let mut depth: i32 = 0;
    let mut in_multiline = false;
    let mut last_was_key = false;
    for l in &s.lines {
        let t = l.trim();
        if in_multiline {
            if t.contains("\"\"\"") || t.contains("'''") {
                in_multiline = false;
            }
            inner += 1;
            continue;
        }
        if t.is_empty() {
            continue;
        }
        if t.starts_with('#') || t.starts_with(';') || t.starts_with('!') {
            comments += 1;
            continue;
        }
        if depth > 0 {
            depth += brackets(t);
            inner += 1;
            continue;
        }
        let indented = l.starts_with([' ', '\t']);
        if SECTION.is_match(t.as_bytes()) && !indented {
            sections += 1;
            last_was_key = false;
        } else if ASSIGN.is_match(t.as_bytes())
            && !indented
            && !t.ends_with(':')
            && !log_record_head(t)
        {
            assigns += 1;
            if ENV_LINE.is_match(t.as_bytes()) {
                env += 1;
            }
            if t.split(['=', ':'])
                .next()
                .is_some_and(|k| k.trim().contains('.'))
            {
                dotted += 1;
            }
            let value = t.split_once(['=', ':']).map_or("", |x| x.1);
            depth = brackets(value).max(0);
            let q = value.matches("\"\"\"").count() + value.matches("'''").count();
            in_multiline = q % 2 == 1;
            last_was_key = true;
        } else if (indented && last_was_key) || t.ends_with('\\') {
            // INI continuation lines (setup.cfg, tox.ini), properties'
            // backslash continuations.
            cont += 1;
        } else {
            other += 1;
        }
    }
    let keys = sections + assigns;
    if other * 10 > keys + cont {
        return None;
    }
    let explained = keys + cont + comments + inner;
    if sections >= 1 && assigns >= 2 {
        return Some(("TOML/INI: [sections] and key = value lines", explained));
    }
    if assigns >= 3 && env == assigns {
        return Some((".env: NAME=value lines", explained));
    }
    if assigns >= 5 && dotted * 2 >= assigns {
        return Some(("Java properties: dotted.key = value lines", explained));
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
    Regex::new(r#"(?-u)^\s*(- )?("[^"]*"|'[^']*'|<<|[A-Za-z0-9_.$/@-][^:#]*?)\s*:(\s|$)"#)
        .expect("yaml key pattern")
});

/// YAML: the rule and the lines it explains.
fn yaml_like(v: &str, s: &Sample<'_>) -> Option<(&'static str, usize)> {
    let mut keys = 0;
    let mut levels = 0;
    let mut items = 0;
    let mut other = 0;
    let mut docs = 0;
    let mut inner = 0;
    let mut comments = 0;
    let mut block: Option<usize> = None;
    // The indentation of the last key line: deeper lines without a key
    // continue its plain scalar.
    let mut key_indent: Option<usize> = None;
    let mut flow: i32 = 0;
    for l in &s.lines {
        let t = l.trim();
        let indent = l.len() - l.trim_start().len();
        if let Some(b) = block {
            if t.is_empty() || indent > b {
                inner += usize::from(!t.is_empty());
                continue;
            }
            block = None;
        }
        if t.is_empty() {
            continue;
        }
        if t.starts_with('#') {
            comments += 1;
            continue;
        }
        // Inside a flow collection spread over lines (`key: [`, `{ … },`).
        if flow > 0 {
            flow += brackets(t);
            inner += 1;
            continue;
        }
        if t == "---" || t == "..." {
            docs += 1;
            continue;
        }
        if YAML_KEY.is_match(l.as_bytes()) {
            keys += 1;
            if indent == 0
                && t.split_once(':')
                    .is_some_and(|(k, _)| LEVEL_KEYS.contains(&k))
            {
                levels += 1;
            }
            key_indent = Some(indent);
            flow = brackets(t.split_once(':').map_or("", |x| x.1)).max(0);
            let after = t.split_once(": ").map_or("", |x| x.1).trim();
            let after = after.trim_start_matches(['&', '!']);
            let after = after.rsplit(' ').next().unwrap_or(after);
            if after.starts_with('|') || after.starts_with('>') {
                block = Some(indent);
            }
        } else if t.starts_with("- ") || t == "-" {
            items += 1;
            key_indent = Some(indent);
        } else if t.starts_with("{{") || t.starts_with("{%") {
            // Helm and Jinja templating inside YAML.
            keys += 1;
        } else if key_indent.is_some_and(|k| indent > k) {
            // A plain scalar continued on deeper lines.
            inner += 1;
        } else {
            other += 1;
        }
    }
    let significant = keys + items + other;
    // Most keys a level word: a log's records (`info: Microsoft.…[1]`
    // over an indented message), not a mapping.
    if keys < 3 || keys * 2 < significant || other * 5 > significant || levels * 2 > keys {
        return None;
    }
    let explained = keys + items + inner + comments + docs;
    // Helm and Jinja expressions; GitHub Actions' `${{ … }}` is plain YAML.
    let templated = v
        .match_indices("{{")
        .any(|(i, _)| i == 0 || v.as_bytes()[i - 1] != b'$')
        || v.contains("{%");
    if templated {
        return Some((
            "YAML with template expressions (Helm/Jinja): mostly key: value lines",
            explained,
        ));
    }
    // yaml.v3's decoder reads a stream: one check for one or many documents.
    if !crate::go::yaml::decodes(v) {
        // What lenient readers take (a flow collection whose lines sit at
        // the key's indentation, as CI systems accept): every line a key,
        // an item, a comment or inside a value.
        // Weaker evidence: it counts four fifths.
        return (other == 0 && keys >= 5).then_some((
            "YAML-like keys and items (not strictly valid YAML)",
            explained * 4 / 5,
        ));
    }
    Some((
        if docs > 0 {
            "YAML documents (---) that decode, mostly key: value lines"
        } else {
            "YAML that decodes, mostly key: value lines"
        },
        explained,
    ))
}
