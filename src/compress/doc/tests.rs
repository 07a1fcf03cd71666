//! The lean document view on small documents of each shape.

use super::*;

fn view(text: &str) -> String {
    String::from_utf8(lean(text, "", None).expect("a view").bytes).unwrap()
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
    let code: String = (0..20).map(|k| format!("let x{k} = f({k});\n")).collect();
    let defs: String = (0..6)
        .map(|k| format!("[l{k}]: https://example.com/{k}\n"))
        .collect();
    let doc =
        format!("# Usage\n\n{PARA}\n\n```rust\n{code}```\n\n```sh\n$ cargo add x\n```\n\n{defs}");
    let v = view(&doc);
    assert!(
        v.contains(
            "let x5 = f(5);\n\u{2026} 11 lines elided (caveman): part of an example \u{2026}\nlet x17 = f(17);"
        ),
        "{v}"
    );
    assert!(v.contains("```rust\nlet x0 = f(0);\n"), "{v}");
    assert!(v.contains("let x19 = f(19);\n```"), "{v}");
    assert!(v.contains("$ cargo add x"), "{v}");
    assert!(
        v.contains("\u{2026} 6 lines elided (caveman): 6 link definitions \u{2026}"),
        "{v}"
    );
}

#[test]
fn problem_lines_stay_beside_the_skeleton() {
    let doc = format!("# Notes\n\n{PARA}\n{PARA}\nThe build failed with error E0502 on the second run.\nMore words that are not needed at all in this view here.\n\n{PARA}\n{}", more());
    let v = view(&doc);
    assert!(
        v.contains("The build failed with error E0502 on the second run."),
        "{v}"
    );
    assert!(v.contains("# Notes"), "{v}");
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
    let c = lean(&doc, "", None).unwrap();
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
    let c = lean(&doc, "", Some(300)).unwrap();
    let v = String::from_utf8(c.bytes).unwrap();
    assert!(crate::tokens::count(v.as_bytes()) <= 330, "{v}");
    assert!(v.contains("## Section 0"), "{v}");
}
