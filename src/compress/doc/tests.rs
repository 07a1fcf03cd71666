//! The lean document view on small documents of each shape.

use super::*;

fn view(text: &str) -> String {
    String::from_utf8(lean(text, "", None, &|| None).expect("a view").bytes).unwrap()
}

/// Enough prose after a document that its sentences are cut (a document
/// with little prose keeps all of it).
fn more() -> String {
    let mut s = String::from("\n## More\n\n");
    for _ in 0..16 {
        s.push_str(PARA);
        s.push_str("\n\n");
    }
    s
}

const PARA: &str = "The first sentence says what the paragraph is about. The second one goes on with details that an agent rarely needs, and a third adds more of them so that the cut pays for its marker.";

#[test]
fn paragraphs_keep_their_first_sentence() {
    let doc = format!(
        "# Title\n\n{PARA}\n\n## Usage\n\n{PARA}\n{PARA}\n\n{PARA}\n{}",
        more()
    );
    let v = view(&doc);
    assert!(v.contains("# Title\n"), "{v}");
    assert!(v.contains("## Usage\n"), "{v}");
    assert!(
        v.contains("The first sentence says what the paragraph is about. \u{2026} 27 words elided (caveman) \u{2026}\n"),
        "{v}"
    );
    assert!(!v.contains("second one"), "{v}");
}

#[test]
fn changelog_keeps_every_version_and_item() {
    let mut doc = String::from("# Changelog\n\n");
    for v in 0..12 {
        doc.push_str(&format!("## [0.{v}.0] - 2024-01-{:02}\n\n", v + 1));
        doc.push_str(
            "- Fix a crash when the input is empty\n  [#12](https://github.com/o/r/pull/12)\n",
        );
        doc.push_str("- Add a flag that turns colour off\n\n");
    }
    // Short items are not cut: the view would save under 15 %, the
    // changelog stays whole.
    assert!(lean(&doc, "", None, &|| None).is_err());
    // Long items are cut to their first sentence; every version and item
    // stays, link targets folded.
    let doc = doc.replace(
        "- Add a flag that turns colour off\n",
        &format!("- Add a flag that turns colour off. {PARA} {PARA}\n"),
    );
    let v = view(&doc);
    for k in 0..12 {
        assert!(v.contains(&format!("## [0.{k}.0] - 2024-01-")), "{v}");
    }
    assert_eq!(
        v.matches("Add a flag that turns colour off").count(),
        12,
        "{v}"
    );
    assert!(v.contains("[#12](\u{2026})"), "{v}");
    assert!(v.contains("12 link targets shown as"), "{v}");
}

#[test]
fn man_page_keeps_sections_options_and_first_sentences() {
    let bold = |s: &str| {
        s.chars()
            .map(|c| format!("{c}\u{8}{c}"))
            .collect::<String>()
    };
    let mut doc = format!(
        "LS(1)                     User Commands                     LS(1)\n\n{}\n       ls - list directory contents\n\n{}\n       List  information  about  the FILEs (the current directory by default).\n       Sort entries alphabetically if none of -cftuvSUX nor --sort is specified.\n       Mandatory arguments to long options are mandatory for short options too.\n\n",
        bold("NAME"),
        bold("DESCRIPTION")
    );
    for (opt, desc) in [
        ("-a, --all", "do not ignore entries starting with ."),
        ("-A, --almost-all", "do not list implied . and .."),
        ("--author", "with -l, print the author of each file"),
        ("--block-size=SIZE", "with -l, scale sizes by SIZE when printing them; e.g., '--block-size=M'; see SIZE format below"),
    ] {
        doc.push_str(&format!("       {}\n              {desc}\n\n", bold(opt)));
    }
    doc.push_str(&format!(
        "{}\n       Written by Richard M. Stallman and David MacKenzie.\n",
        bold("AUTHOR")
    ));
    let v = view(&doc);
    for want in [
        "NAME",
        "DESCRIPTION",
        "AUTHOR",
        "-a, --all",
        "--block-size=SIZE",
        "do not list implied . and ..",
        "ls - list directory contents",
    ] {
        assert!(v.contains(want), "{want}: {v}");
    }
    assert!(!v.contains('\u{8}'), "{v}");
}

#[test]
fn examples_fold_and_link_definitions_go() {
    let code: String = (0..40).map(|k| format!("let x{k} = f({k});\n")).collect();
    let defs: String = (0..6)
        .map(|k| format!("[l{k}]: https://example.com/{k}\n"))
        .collect();
    let doc =
        format!("# Usage\n\n{PARA}\n\n```rust\n{code}```\n\n```sh\n$ cargo add x\n```\n\n{defs}");
    let v = view(&doc);
    assert!(
        v.contains(
            "let x5 = f(5);\n\u{2026} 31 lines elided (caveman): part of an example \u{2026}\nlet x37 = f(37);"
        ),
        "{v}"
    );
    assert!(v.contains("```rust\nlet x0 = f(0);\n"), "{v}");
    assert!(v.contains("let x39 = f(39);\n```"), "{v}");
    assert!(v.contains("$ cargo add x"), "{v}");
    assert!(
        v.contains("\u{2026} 6 lines elided (caveman): 6 link definitions \u{2026}"),
        "{v}"
    );
}

#[test]
fn a_paragraph_that_reports_a_problem_is_one_unit() {
    // The wrapped line with the problem word is not kept alone: its
    // paragraph stays whole, subject and all.
    let doc = format!("# Notes\n\n{PARA}\nThe build\nfailed with error E0502 on the second run.\nMore words that are not needed at all in this view here.\n\n{PARA}\n{}", more());
    let v = view(&doc);
    assert!(
        v.contains(&format!("{PARA}\nThe build\nfailed with error E0502 on the second run.\nMore words that are not needed at all in this view here.\n")),
        "{v}"
    );
    assert!(v.contains("# Notes"), "{v}");
    // Other paragraphs are still cut to their first sentence.
    assert!(
        v.contains("about. \u{2026} 27 words elided (caveman) \u{2026}\n"),
        "{v}"
    );
}

#[test]
fn long_code_is_head_and_tail_never_a_comment_for_its_word() {
    let mut code: String = (0..50).map(|k| format!("let x{k} = f({k});\n")).collect();
    code = code.replace("let x25 = f(25);", "// report the error and fail");
    let doc = format!("# Usage\n\n{PARA}\n\n```rust\n{code}```\n{}", more());
    let v = view(&doc);
    assert!(!v.contains("// report the error"), "{v}");
    assert!(
        v.contains("let x5 = f(5);\n\u{2026} 41 lines elided (caveman): part of an example \u{2026}\nlet x47 = f(47);"),
        "{v}"
    );
    // Error output in a long block is what it shows: it stays.
    let out = code.replace(
        "// report the error and fail",
        "error[E0382]: borrow of moved value",
    );
    let doc = format!("# Usage\n\n{PARA}\n\n```text\n{out}```\n{}", more());
    let v = view(&doc);
    assert!(v.contains("\nerror[E0382]: borrow of moved value\n"), "{v}");
    // A block of up to 40 lines with a problem word stays whole.
    let short: String = (0..30).map(|k| format!("let x{k} = f({k});\n")).collect();
    let short = short.replace("let x15 = f(15);", "// on error, fail");
    let doc = format!("# Usage\n\n{PARA}\n\n```rust\n{short}```\n{}", more());
    assert!(view(&doc).contains(&short), "whole");
}

#[test]
fn short_list_items_are_not_cut_inside() {
    let cite = "+ Wei Xu, Ling Huang, Armando Fox. Detecting Large-Scale System Problems by Mining Console Logs, in Proc. of the 22nd ACM Symposium on Operating Systems Principles (SOSP), 2009.";
    let long_item = format!("- {PARA} {PARA}");
    let doc = format!("# Papers\n\n{cite}\n{cite}\n\n{long_item}\n{}", more());
    let v = view(&doc);
    assert_eq!(v.matches(cite).count(), 2, "{v}");
    assert!(
        v.contains("- The first sentence says what the paragraph is about. \u{2026}"),
        "{v}"
    );
}

#[test]
fn a_cut_that_saves_little_is_not_made() {
    // Prose only just over the whole-prose size: one paragraph of many
    // is cut, the rest is headings and short items.
    let mut doc = String::from("# Title\n\n");
    for k in 0..60 {
        doc.push_str(&format!(
            "- item {k} of a list of short things that all stay\n"
        ));
    }
    doc.push_str(&format!("\n{PARA}\n"));
    assert!(lean(&doc, "", None, &|| None).is_err());
}

#[test]
fn values_and_rules_sentences_stay() {
    let doc = format!("# Options\n\nControl the automatic conversion of plain zero writes to optimized zero write commands. This goes on about many things that nobody reads here today or on any other day of the week. DETECT_ZEROES is one of off, on, or unmap. The -L flag is incompatible with --export-name here. Unmap can only be used if discard is set.\n{}", more());
    let v = view(&doc);
    assert!(
        v.contains("DETECT_ZEROES is one of off, on, or unmap."),
        "{v}"
    );
    assert!(v.contains("is incompatible with"), "{v}");
    assert!(v.contains("can only be used if"), "{v}");
    assert!(!v.contains("nobody reads"), "{v}");
}

#[test]
fn a_label_names_the_prose_it_covers() {
    // A paragraph split by a command line: the prose after the command
    // goes with the image after it, and the label says so.
    let doc = format!("# Setup\n\n{PARA}\n$ make install\nThis is particularly challenging for the other tool which grows quadratic with the input here.\nThe other encoder scales better but becomes slower and slower as the input grows.\n\n![chart](./images/chart.svg)\n\n## After\n{}", more());
    let v = view(&doc);
    assert!(
        v.contains(
            "\u{2026} 4 lines elided (caveman): 1 line of markup, 2 lines of prose \u{2026}"
        ),
        "{v}"
    );
}

/// The plan's items for `text`, every paragraph cut (as in a long
/// document), with the blocks read.
fn plan_of(text: &str) -> (Vec<Item>, Vec<Block>) {
    let doc = Lines::split(text);
    let shape = Shape::of(&doc);
    let blocks: Vec<Block> = Reader::new(&doc, &shape).collect();
    let mut plan = Plan::new(&doc, &[], false);
    for (k, b) in blocks.iter().enumerate() {
        plan.block(*b, &blocks[k + 1..]);
    }
    (plan.finish().0, blocks)
}

proptest::proptest! {
    /// Every marker with a label accounts for every non-blank line it
    /// covers: each is of a kind the label names, and its prose lines are
    /// counted.
    #[test]
    fn labels_account_for_every_line(pieces in proptest::collection::vec(0..7usize, 1..14)) {
        let mut doc = String::from("# Doc\n\n");
        for (n, p) in pieces.iter().enumerate() {
            match p {
                0 => doc.push_str(&format!("{PARA}\n{PARA}\n")),
                1 => doc.push_str(&format!("{PARA}\n$ run {n}\nThis line goes on and on without a point at all here.\nAnd so does this one for the sake of the test.\n")),
                2 => doc.push_str("[![ci](https://img.shields.io/x.svg)](https://github.com/a/b)\n"),
                3 => doc.push_str("[a]: https://example.com/a\n[b]: https://example.com/b\n"),
                4 => {
                    doc.push_str("```\n");
                    for k in 0..30 { doc.push_str(&format!("call({k});\n")); }
                    doc.push_str("```\n");
                }
                5 => doc.push_str(&format!("#. Clone it and make a branch::\n\n    $ git clone x\n    git switch -c b{n}\n\n   Given we have versions, bug fixes will usually be released in micro releases whereas features go in minor ones.\n")),
                _ => doc.push_str(&format!("- {PARA} {PARA}\n")),
            }
            doc.push('\n');
        }
        let (items, blocks) = plan_of(&doc);
        let lines: Vec<&str> = doc.split('\n').collect();
        let kind_of = |i: usize| blocks.iter().find(|b| b.start <= i && i < b.end).map(|b| b.kind);
        for it in &items {
            let Body::Marker(m) = &it.body else { continue };
            let Some((_, label)) = m.split_once("(caveman): ") else { continue };
            let mut prose = 0;
            for i in it.lines.clone() {
                if lines[i].trim().is_empty() { continue; }
                let named = match kind_of(i) {
                    Some(Kind::Paragraph | Kind::List) => { prose += 1; label.contains(" of prose") }
                    Some(Kind::Fence | Kind::Indented) => label.contains("example"),
                    Some(Kind::Markup) => label.contains("markup"),
                    Some(Kind::LinkDefs) => label.contains("link definition"),
                    k => panic!("{k:?} line {i} under {m}"),
                };
                proptest::prop_assert!(named, "line {} {:?} under {}", i, lines[i], m);
            }
            if prose > 0 {
                let want = format!("{prose} line{} of prose", if prose == 1 { "" } else { "s" });
                proptest::prop_assert!(label.contains(&want), "{} wants {}", m, want);
            }
        }
    }
}

#[test]
fn one_paragraph_a_line_is_read_line_by_line() {
    let doc: String = (0..16).map(|_| format!("{PARA}\n")).collect();
    let v = view(&doc);
    assert_eq!(v.matches("The first sentence says").count(), 16, "{v}");
    assert_eq!(v.matches("words elided").count(), 16, "{v}");
}

#[test]
fn every_dropped_line_is_counted() {
    let doc = format!("# A\n\n{PARA}\n{PARA}\n{PARA}\nline two of it that goes on for long enough to matter here.\nline three of it that goes on for long enough to matter here.\nline four of it that goes on for long enough to matter here.\n\n## B\n\nshort.\n{}", more());
    let c = lean(&doc, "", None, &|| None).unwrap();
    let v = String::from_utf8(c.bytes).unwrap();
    let t = c.trace.unwrap();
    let kept: usize = t.kept.iter().map(|r| r.1).sum();
    assert_eq!(kept + t.dropped, doc.lines().count(), "{v} {t:?}");
}

#[test]
fn budget_keeps_headings_first() {
    let mut doc = String::new();
    for k in 0..30 {
        doc.push_str(&format!("## Section {k}\n\n{PARA}\n{PARA}\n\n"));
    }
    let c = lean(&doc, "", Some(300), &|| None).unwrap();
    let v = String::from_utf8(c.bytes).unwrap();
    assert!(crate::tokens::count(v.as_bytes()) <= 330, "{v}");
    assert!(v.contains("## Section 0"), "{v}");
}

/// Issue 40 rule 8: a document of short code blocks (a migration guide:
/// patches and compiler errors) larger than compat's view is read at the
/// compact level: every heading and paragraph stays, a patch keeps its
/// file line and changes, an error block its diagnostics and locations.
#[test]
fn a_document_over_compats_size_keeps_headings_errors_and_changes() {
    let mut doc = String::from("# Upgrade guide\n\n");
    for k in 0..6 {
        doc.push_str(&format!(
            "## {k}. next we encounter an error in `crate{k}`\n\n```bash\nerror[E0433]: failed to resolve: could not find `old{k}` in `dep`\n  --> src/lib{k}.rs:1:19\n   |\n 1 | use crate::dep::old{k}::collections::HashMap;\n   |            ^^^^^^^^ could not find it\n```\n\nWe replace the import:\n\n```diff\ndiff --git a/src/lib{k}.rs b/src/lib{k}.rs\nindex f38e88411..1587f4131 100644\n--- a/src/lib{k}.rs\n+++ b/src/lib{k}.rs\n@@ -1,9 +1,9 @@\n use std::c0;\n use std::c1;\n use std::c2;\n use std::c3;\n use std::c4;\n use std::c5;\n use std::fmt;\n-use crate::dep::old{k}::collections::HashMap;\n+use std::collections::HashMap;\n use std::io;\n```\n\n"
        ));
    }
    // Whole (the rich view saves too little) without a ceiling.
    assert!(lean(&doc, "", None, &|| None).is_err());
    let v = lean(&doc, "", None, &|| Some(10)).unwrap();
    let v = String::from_utf8(v.bytes).unwrap();
    assert!(v.len() < doc.len(), "{v}");
    for k in 0..6 {
        for want in [
            format!("## {k}. next we encounter an error in `crate{k}`\n"),
            format!("```bash\nerror[E0433]: failed to resolve: could not find `old{k}` in `dep`\n  --> src/lib{k}.rs:1:19\n"),
            format!("```diff\ndiff --git a/src/lib{k}.rs b/src/lib{k}.rs\n"),
            format!("-use crate::dep::old{k}::collections::HashMap;\n+use std::collections::HashMap;\n use std::io;\n```\n"),
            format!("  --> src/lib{k}.rs:1:19\n\u{2026} 2 lines elided (caveman): part of an example \u{2026}\n   |            ^^^^^^^^ could not find it\n"),
        ] {
            assert!(v.contains(&want), "{want}\n{v}");
        }
    }
    assert!(!v.contains("index f38e88411"), "{v}");
    // The index and file lines, the hunk header and its context lines
    // go in one marker.
    assert!(
        v.contains("\u{2026} 11 lines elided (caveman): part of an example \u{2026}\n-use"),
        "{v}"
    );
}
