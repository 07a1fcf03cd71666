//! Lean detection: names payloads as a person would. The compat cascade
//! (spec/detect.md) calls configs, build output, grep output and prose
//! `code`; this one reads the text as a terminal shows it
//! ([`crate::compress::shared::clean`]) and asks a table of recognisers,
//! one per family of formats, each in its own module:
//!
//! 1. **decisive** recognisers, in order, the first that holds wins: JSON
//!    and NDJSON, unified diffs, HTML documents, JUnit XML reports, `git
//!    log`, a `terraform plan`, a shebang;
//! 2. **line** recognisers: each that holds says how much of the sample it
//!    explains (the share of non-blank lines that are its lines, 0–100),
//!    and the one that explains most wins, ties in table order: CSV, TSV
//!    and Markdown tables; grep output; aligned command tables; configs
//!    (dependency manifests and lock files, XML documents, TOML, INI,
//!    .env, properties, YAML); tool output (test runners,
//!    compilers, build tools, package managers); logs; prose; code.
//!
//! When none holds, the payload is `text` and the compressor is told it
//! is unsure ([`Parsed::Unsure`]): it may fold repetition but never drop
//! unique lines by position.
//!
//! Line rules read a sample (the first [`SAMPLE`] lines), so detection
//! costs the same on 64 MiB as on 64 KiB; JSON is decoded whole, as in
//! compat, and hands its tape to the compressor.

use std::borrow::Cow;

use super::lang::{self, Language};
use super::{Detected, Parsed};
use crate::content_type::ContentType;
use crate::go::json as gojson;
use crate::go::unicode::trim_space;
use crate::go::utf8::go_lossy;

mod config;
mod log;
mod manifest;
mod prose;
mod sample;
mod search;
mod structure;
mod tables;
mod tools;

pub(crate) use sample::Sample;
pub(crate) use search::{looks_path, scheme_len, search_line, SearchLine};

/// Lines the line rules read.
const SAMPLE: usize = 2000;

/// What detection reads: the body, its text, and the sample.
pub(crate) struct Ctx<'b, 't> {
    /// The text (invalid UTF-8 as U+FFFD).
    pub text: &'t str,
    /// The body when it is valid UTF-8 (parsers that hand their result to
    /// the compressor borrow the body itself).
    pub valid: Option<&'b str>,
    pub sample: Sample<'t>,
    /// Hand what was parsed to the compressor.
    pub keep: bool,
}

/// A recogniser's answer.
pub(crate) struct Hit<'a> {
    pub ct: ContentType,
    pub parsed: Parsed<'a>,
    pub rule: &'static str,
    /// How much of the sample the recogniser explains, 0–100 (line
    /// recognisers; decisive ones say 100).
    pub score: u32,
}

impl<'a> Hit<'a> {
    pub fn new(ct: ContentType, rule: &'static str, score: u32) -> Hit<'a> {
        Hit {
            ct,
            parsed: Parsed::Nothing,
            rule,
            score: score.min(100),
        }
    }

    pub fn with(mut self, parsed: Parsed<'a>) -> Hit<'a> {
        self.parsed = parsed;
        self
    }
}

/// The share of `n` in `of`, 0–100.
pub(crate) fn share(n: usize, of: usize) -> u32 {
    ((n.min(of) * 100).checked_div(of).unwrap_or(0)) as u32
}

type Recognise = for<'b, 't> fn(&Ctx<'b, 't>) -> Option<Hit<'b>>;

/// The decisive recognisers, in order: the first that holds wins.
const DECISIVE: &[(&str, Recognise)] = &[
    ("ndjson", structure::ndjson),
    ("diff", structure::diff),
    ("html", structure::html),
    ("junit report", structure::junit_report),
    ("git log", structure::git_log),
    ("terraform plan", structure::terraform_plan),
    ("shebang", code_by_shebang),
];

/// The line recognisers: the one that explains most of the sample wins,
/// ties in this order. Each share is weighed by how much one line says:
/// a sentence or a statement is weaker evidence than a timestamped
/// record, a `path:N:` hit or a `key = value` line. grep output comes
/// before tables: hits whose text holds a comma also read as two columns.
const LINE_RULES: &[(&str, Recognise, u32)] = &[
    ("manifest", manifest::manifest, 100),
    ("grep output", search::grep, 100),
    ("csv/tsv/markdown table", tables::delimited, 100),
    ("aligned table", tables::aligned, 100),
    ("ls -l listing", tables::listing, 100),
    ("config", config::config, 100),
    ("tool output", tools::tool_output, 100),
    ("log", log::log, 100),
    ("prose", prose::prose, 70),
    (CODE, code_by_lines, 80),
];

/// The code rule's name in [`LINE_RULES`].
const CODE: &str = "code";

/// Lean detection of `body`; with `keep`, hands over what it parsed.
///
/// `others` says whether the caller reads the other rules that held
/// ([`Detected::others`], which only `--explain` prints). Without them the
/// code rule, the dearest (a vote of some seventy line patterns), is not
/// asked when its score cannot beat the best rule so far: its answer
/// could only join the others. The type, rule and parse are the same
/// either way.
pub(super) fn detect(body: &[u8], keep: bool, coloured: bool, others: bool) -> Detected<'_> {
    let t = trim_space(body);
    let t = t.strip_prefix("\u{feff}".as_bytes()).unwrap_or(t);
    if t.is_empty() {
        return found(ContentType::Text, Parsed::Nothing, "the body is blank");
    }
    if t[0] == b'{' || t[0] == b'[' {
        if !keep {
            if gojson::is_valid(t) {
                return found(ContentType::Json, Parsed::Nothing, JSON_RULE);
            }
        } else if t.len() == trim_space(body).len() {
            if let Ok(v) = gojson::decode_exact(t, crate::compress::json::INPUT_ORDER) {
                return found(ContentType::Json, Parsed::Json(v), JSON_RULE);
            }
        } else if gojson::is_valid(t) {
            // Behind a byte-order mark: the compressor decodes it again.
            return found(ContentType::Json, Parsed::Nothing, JSON_RULE);
        }
    }
    let text = go_lossy(body);
    let valid = match &text {
        Cow::Borrowed(s) => Some(*s),
        Cow::Owned(_) => None,
    };
    let ctx = Ctx {
        text: &text,
        valid,
        sample: Sample::of(&text),
        keep,
    };
    let (hit, others) = recognise(&ctx, others);
    let mut d = match hit {
        // Output drawn for a terminal that no rule reads as a diff, a
        // table, a config, a log, tool output or prose: a program's
        // output, not a source file.
        Some(h) if coloured && (h.ct == ContentType::Code || weak_prose(h.rule)) => {
            found(ContentType::Terminal, Parsed::Unsure, COLOURED_RULE)
        }
        None if coloured => found(ContentType::Terminal, Parsed::Unsure, COLOURED_RULE),
        Some(h) => found(h.ct, h.parsed, h.rule),
        None => found(ContentType::Text, Parsed::Unsure, UNSURE_RULE),
    };
    d.others = others;
    d
}

/// The recognisers' answer for `ctx` (module doc), and the other line
/// recognisers that held with their scores, best first.
fn recognise<'b>(ctx: &Ctx<'b, '_>, wanted: bool) -> (Option<Hit<'b>>, Vec<(&'static str, u32)>) {
    if let Some(h) = DECISIVE.iter().find_map(|(_, r)| r(ctx)) {
        return (Some(h), Vec::new());
    }
    let mut best: Option<(&'static str, Hit<'b>)> = None;
    let mut others = Vec::new();
    for &(name, r, weight) in LINE_RULES {
        // The code rule's score is its share of code lines, whether or
        // not a language is identified: when that cannot beat the best
        // (ties go to the earlier rule), only the others would show it.
        if !wanted && name == CODE {
            if let Some((_, b)) = &best {
                if prose::code_share(&ctx.sample) * weight / 100 <= b.score {
                    continue;
                }
            }
        }
        if let Some(mut h) = r(ctx) {
            h.score = h.score * weight / 100;
            match &best {
                Some((_, b)) if h.score <= b.score => others.push((name, h.score)),
                _ => {
                    if let Some((n, b)) = best.take() {
                        others.push((n, b.score));
                    }
                    best = Some((name, h));
                }
            }
        }
    }
    others.sort_by_key(|o| std::cmp::Reverse(o.1));
    (best.map(|b| b.1), others)
}

fn found<'a>(ct: ContentType, parsed: Parsed<'a>, rule: &'static str) -> Detected<'a> {
    Detected {
        ct,
        parsed,
        rule,
        others: Vec::new(),
    }
}

const JSON_RULE: &str = "the body is one valid JSON object or array";
const COLOURED_RULE: &str =
    "terminal escapes (colour, cursor moves or carriage-return redraws), no other structure";
const UNSURE_RULE: &str =
    "no rule recognised the structure: text, folded without dropping unique lines";

/// Prose rules other than a man page's (which nroff draws with
/// overstrike): on a terminal they are a program's output.
fn weak_prose(rule: &str) -> bool {
    rule.starts_with("prose") || rule.starts_with("Markdown")
}

fn code_by_shebang<'b>(ctx: &Ctx<'b, '_>) -> Option<Hit<'b>> {
    let l = lang::shebang(ctx.sample.lines.first().copied().unwrap_or(""))?;
    Some(Hit::new(ContentType::Code, code_rule(l), 100).with(Parsed::Code(l)))
}

fn code_by_lines<'b>(ctx: &Ctx<'b, '_>) -> Option<Hit<'b>> {
    let l = lang::identify(ctx.sample.text)?;
    // Source code is mostly its own lines; prose or logs that name a
    // keyword lose to the rule that explains their lines.
    let score = prose::code_share(&ctx.sample);
    Some(Hit::new(ContentType::Code, code_rule(l), score).with(Parsed::Code(l)))
}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// Payload shapes an agent's tools print, each named as a person
    /// would (`tests/data/shapes/`: rebuilt examples, not corpus files).
    #[test]
    fn names_common_shapes() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/shapes");
        let mut wrong = Vec::new();
        let mut n = 0;
        for e in std::fs::read_dir(dir).expect("shapes folder") {
            let path = e.expect("entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            // `<want>.<name>`: the expected type first.
            let want = name.split('.').next().unwrap().to_owned();
            let body = std::fs::read(&path).expect("read shape");
            let got = crate::detect::detect_as(&body, crate::profile::Profile::Lean, false, false);
            n += 1;
            if got.ct.as_str() != want {
                wrong.push(format!("{name}: got {} ({})", got.ct, got.rule));
            }
        }
        assert!(n >= 20, "{n} shapes");
        assert!(wrong.is_empty(), "misnamed:\n{}", wrong.join("\n"));
    }

    fn lean(s: &str) -> String {
        crate::detect::detect_as(s.as_bytes(), crate::profile::Profile::Lean, false, false)
            .ct
            .to_string()
    }

    /// Without the others wanted, detection names every payload alike
    /// (type, rule, what it parsed) and leaves out of the others at most
    /// the code rule.
    #[test]
    fn the_others_unwanted_change_no_answer() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/shapes");
        let mut bodies: Vec<Vec<u8>> = std::fs::read_dir(dir)
            .expect("shapes folder")
            .map(|e| std::fs::read(e.expect("entry").path()).expect("read shape"))
            .collect();
        // Logs, prose and tool output that name code keywords, and code.
        let mut mixed = String::new();
        for i in 0..40 {
            mixed.push_str(&format!(
                "2024-01-01 10:00:{:02} INFO fn main() {{ let x = {i}; }} import os\n",
                i % 60
            ));
            mixed.push_str("    if err != nil {\n");
        }
        bodies.push(mixed.into_bytes());
        bodies.push(
            b"package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(1)\n}\n".to_vec(),
        );
        bodies.push(b"def f(x):\n    return x\n\nclass A:\n    pass\n".to_vec());
        let mut skipped = 0;
        for body in &bodies {
            for coloured in [false, true] {
                let all = detect(body, true, coloured, true);
                let some = detect(body, true, coloured, false);
                assert_eq!(all.ct, some.ct);
                assert_eq!(all.rule, some.rule);
                assert_eq!(format!("{:?}", all.parsed), format!("{:?}", some.parsed));
                let mut rest = all.others.clone();
                rest.retain(|o| o.0 != CODE);
                let mut got = some.others.clone();
                got.retain(|o| o.0 != CODE);
                assert_eq!(rest, got);
                skipped += usize::from(all.others.len() != some.others.len());
            }
        }
        assert!(skipped > 0, "the code rule was never left out");
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
    fn changelogs_and_package_lists_are_not_record_streams() {
        let mut changelog = String::from("# Changelog\n\nAll notable changes to this project.\n\n");
        let mut news = String::from("Tidepool NEWS -- history of user-visible changes.\n\n");
        for v in (0..12).rev() {
            changelog.push_str(&format!(
                "## [1.{v}.0] - 2026-0{}-01\n\n### Fixed\n- Error toast no longer hides the retry button (#{v}0)\n- Crash when the cache is empty (#{v}1)\n\n",
                1 + v % 9
            ));
            news.push_str(&format!(
                "* Changes in Tidepool 1.{v}.0\n\n** New features\n\n*** New option '--batch-{v}' for the ingest command.\n*** Fixed an error when compacting segments larger than {v} GiB.\n\n"
            ));
        }
        assert_eq!(lean(&changelog), "text", "{changelog}");
        assert_eq!(lean(&news), "text", "{news}");
        let mut pip = String::from(
            "Package                   Version\n------------------------- -----------\n",
        );
        for k in 0..40 {
            pip.push_str(&format!("pkg-alpha-{k:<15} {}.{}.{}\n", k % 5, k % 7, k));
        }
        assert_eq!(lean(&pip), "tabular", "{pip}");
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
        assert_eq!(
            search_line("http://localhost:8000/a:12:b"),
            SearchLine::Other
        );
        assert_eq!(
            search_line("git+https://h.org/a.git:1:x"),
            SearchLine::Other
        );
    }
}
