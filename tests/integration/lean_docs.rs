//! Lean documents, HTML pages, listings and terminal redraws (issue 39's
//! leftovers): a gutter stays coherent, a story in a layout table is the
//! page, rules and figures outlive the first sentence while boilerplate
//! folds under a marker that names it, examples keep head and tail, small
//! tables stay whole, cursor-up redraws show the final screen, an index
//! page's links in a `nav` are the page, a contents list folds only when
//! it repeats the headings, and a long changelog folds its link targets
//! where a short one stays whole. Each
//! payload is rebuilt here from the shapes real tools and sites print.

use crate::util::TestCommand;

fn lean(input: &str) -> String {
    let tc = TestCommand::new();
    let r = tc.run(&["compress", "--profile", "lean"], input.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr_str());
    String::from_utf8(r.stdout).expect("UTF-8 view")
}

/// A `git show` of two files, each hunk with long context, shown with a
/// `  12 | ` gutter as editors and agents' file readers print it.
fn gutter_diff() -> (String, Vec<String>) {
    let mut src = vec![
        "commit 3f1c2a9b7d4e5f60718293a4b5c6d7e8f9012345".to_string(),
        "Author: A Dev <dev@example.com>".to_string(),
        "Date:   Mon Mar 4 10:00:00 2024 +0100".to_string(),
        String::new(),
        "    Resolve relative paths".to_string(),
        String::new(),
    ];
    for (f, start) in [("src/exec.py", 120), ("src/util.py", 40)] {
        src.push(format!("diff --git a/{f} b/{f}"));
        src.push("index 1111111..2222222 100644".to_string());
        src.push(format!("--- a/{f}"));
        src.push(format!("+++ b/{f}"));
        src.push(format!("@@ -{start},15 +{start},15 @@ class Executor:"));
        for k in 0..6 {
            src.push(format!("         ctx_{k} = load({k})"));
        }
        src.push("         return {".to_string());
        src.push("-            \"url\": Path(p).as_uri(),".to_string());
        src.push("+            \"url\": self._to_url(p),".to_string());
        src.push("         }".to_string());
        for k in 6..12 {
            src.push(format!("         ctx_{k} = load({k})"));
        }
    }
    let listing = src
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{:>4} | {l}\n", i + 1))
        .collect();
    (listing, src)
}

#[test]
fn a_gutter_numbers_only_the_lines_the_view_kept() {
    let (listing, src) = gutter_diff();
    let v = lean(&listing);
    // The handle's note goes after the gutter is back: no gutter.
    let lines: Vec<&str> = v
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with("\u{2026} caveman: elided parts"))
        .collect();
    assert!(lines.len() > 10, "{v}");
    let mut last = 0usize;
    let mut numbered = 0;
    for l in &lines {
        // Every line keeps the gutter's own separator, ` | `.
        let (num, text) = l.split_once(" | ").expect("a gutter");
        assert!(!l.contains('\t'), "{l:?}");
        if num.is_empty() {
            // Unnumbered: a marker or a line the view rewrote (a re-cut
            // hunk header, a commit header on one line), never a line of
            // the source under a number.
            assert!(
                text.contains("caveman")
                    || text.starts_with("@@ ")
                    || text.starts_with("commit 3f1c2a9b7d | A Dev"),
                "{l:?} in\n{v}"
            );
            continue;
        }
        let n: usize = num.parse().expect("a number");
        assert!(n > last, "numbers go up: {l:?} in\n{v}");
        last = n;
        assert_eq!(text, src[n - 1], "line {n} is the source's line {n}:\n{v}");
        numbered += 1;
        // A marker never carries a number.
        assert!(!text.contains("caveman"), "{l:?}");
    }
    assert!(numbered >= 12, "{v}");
    for changed in ["\"url\": Path(p).as_uri()", "\"url\": self._to_url(p)"] {
        assert_eq!(v.matches(changed).count(), 2, "{v}");
    }
}

/// A page of the early web: a layout table with a banner row, a sidebar
/// cell of many short link rows, and the story in a `<p>` of the middle
/// cell.
fn layout_page(story: &str) -> String {
    let mut side = String::new();
    for k in 0..40 {
        side.push_str(&format!(
            "<tr><td><a href=\"/day/{k}.html\">Story of the day number {k}</a></td><td>read the tale of day {k} here</td></tr>\n"
        ));
    }
    format!(
        "<html><head><title>The Greedy Dog</title></head><body>\n<table width=\"969\"><tr><td colspan=\"3\"><a href=\"/\">Home</a> &gt; <a href=\"/fables/\">Fables</a></td></tr>\n<tr><td width=\"166\"><table>{side}</table></td>\n<td width=\"619\"><p align=\"center\">The Greedy Dog</p>\n<p>{story}</p>\n<p align=\"center\">The end</p></td>\n<td width=\"166\"><table>{side}</table></td></tr></table>\n</body></html>\n"
    )
}

#[test]
fn a_story_in_a_layout_table_is_the_page() {
    let story = "A dog was crossing a bridge with a piece of meat in its mouth. Looking down, it saw another dog in the river, carrying a piece of meat of its own. That meat looked bigger, so the dog barked at the other one to scare it away. The moment it opened its mouth, its own meat fell into the river with a splash. In the water there was only the sad face of a dog looking back. The other dog had been its own reflection all along. Wanting what others have makes you lose what you hold.";
    let v = lean(&layout_page(story));
    assert!(v.contains("A dog was crossing a bridge"), "{v}");
    assert!(v.contains("its own reflection all along"), "{v}");
    assert!(v.contains("The end"), "{v}");
}

/// A README with prose whose later sentences hold the rules and the
/// figures, boilerplate sections, a short and a long example, and a
/// small table.
fn readme() -> String {
    let mut doc = String::from("# fastq\n\nA tool that reads queue files. It was started as a weekend project and grew from there over the years with help from many people.\n\n# Contents\n\n- [Limits](#limits)\n- [Usage](#usage)\n- [License](#license)\n- [Contributors](#contributors)\n- [Thanks](#thanks)\n\n## Limits\n\n");
    doc.push_str("The reader streams every record it meets. It was written with the usual care for the edge cases that readers of such files meet in practice. Records must not exceed 64 MiB each. Older versions of the format go through the compatibility layer of the crate. The default buffer is 8 KiB and can be raised with `--buffer`. Readers that are slow are not the tool's concern here.\n\n");
    for k in 0..12 {
        doc.push_str(&format!("Section {k} of the text goes on about the history of the project in some detail. It tells how the maintainers met and what they had for lunch on the day of the first release. Nothing in it is of use to a reader who wants to run the tool.\n\n"));
    }
    doc.push_str("## Usage\n\n```sh\n");
    for k in 0..10 {
        doc.push_str(&format!("fastq read --part {k} input.q\n"));
    }
    doc.push_str("```\n\n```rust\n");
    for k in 0..30 {
        doc.push_str(&format!("let r{k} = reader.next_record()?;\n"));
    }
    doc.push_str("```\n\n| flag | meaning |\n|---|---|\n");
    for k in 0..15 {
        doc.push_str(&format!("| --opt{k} | option number {k} |\n"));
    }
    doc.push_str("\n## License\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\nof this software and associated documentation files (the \"Software\"), to deal\nin the Software without restriction, including without limitation the rights\nto use, copy, modify, merge, publish, distribute, sublicense, and/or sell\ncopies of the Software, and to permit persons to whom the Software is\nfurnished to do so, subject to the following conditions.\n\nThe above copyright notice and this permission notice shall be included in all\ncopies or substantial portions of the Software.\n\n## Contributors\n\n");
    for k in 0..12 {
        doc.push_str(&format!("- Contributor Number{k} <c{k}@example.com>\n"));
    }
    doc
}

#[test]
fn rules_and_figures_stay_while_boilerplate_folds() {
    let v = lean(&readme());
    // The rules and figures past a paragraph's first sentence.
    assert!(v.contains("Records must not exceed 64 MiB each."), "{v}");
    assert!(v.contains("The default buffer is 8 KiB"), "{v}");
    // The chatter does not.
    assert!(!v.contains("what they had for lunch"), "{v}");
    assert!(!v.contains("usual care for the edge cases"), "{v}");
    // A table of contents folds, and the sections under it stay.
    assert!(v.contains("# Contents"), "{v}");
    assert!(!v.contains("[Usage](#usage)"), "{v}");
    assert!(v.contains("## Limits") && v.contains("## Usage"), "{v}");
    // Boilerplate: one marker each that names it and counts its lines.
    assert!(v.contains("## License"), "{v}");
    assert!(!v.contains("Permission is hereby granted"), "{v}");
    assert!(v.contains("lines elided (caveman): licence text"), "{v}");
    assert!(v.contains("## Contributors"), "{v}");
    assert!(!v.contains("Number7"), "{v}");
    assert!(
        v.contains("\u{2026} 12 lines elided (caveman): list of people \u{2026}"),
        "{v}"
    );
}

#[test]
fn examples_keep_head_and_tail_and_small_tables_stay_whole() {
    let v = lean(&readme());
    // A short example whole.
    for k in 0..10 {
        assert!(v.contains(&format!("fastq read --part {k} input.q")), "{v}");
    }
    // A long one: its head and its tail, the middle counted.
    assert!(v.contains("let r0 = reader.next_record()?;"), "{v}");
    assert!(v.contains("let r5 = reader.next_record()?;"), "{v}");
    assert!(v.contains("let r29 = reader.next_record()?;"), "{v}");
    assert!(!v.contains("let r15 ="), "{v}");
    assert!(
        v.contains("\u{2026} 21 lines elided (caveman): part of an example \u{2026}"),
        "{v}"
    );
    // A table of 15 rows whole.
    for k in 0..15 {
        assert!(
            v.contains(&format!("| --opt{k} | option number {k} |")),
            "{v}"
        );
    }
}

#[test]
fn a_cursor_up_redraw_shows_the_final_screen() {
    let layers = [
        "07e62ecb726a",
        "331743f747fb",
        "2543649889c9",
        "10f91d26a1a9",
    ];
    let mut s = String::from(
        "+ docker push registry.example.com/app:9a5a7e9\nThe push refers to a repository [registry.example.com/app]\n",
    );
    // Each layer: a new line, then the cursor goes up to write on it.
    for l in layers {
        s.push_str(&format!("\n\x1b[1A\x1b[2K\r{l}: Preparing \r\x1b[1B"));
    }
    for (i, l) in layers.iter().enumerate() {
        let up = layers.len() - i;
        s.push_str(&format!("\x1b[{up}A\x1b[2K\r{l}: Waiting \r\x1b[{up}B"));
    }
    for (i, l) in layers.iter().enumerate().rev() {
        let up = layers.len() - i;
        s.push_str(&format!(
            "\x1b[{up}A\x1b[2K\r{l}: Layer already exists \r\x1b[{up}B"
        ));
    }
    s.push_str("9a5a7e9: digest: sha256:e0271b89d75b4bf43d89eda0de850770f8f0a026fc7d7e967124cbad3d41f5d3 size: 3052\n");
    let v = lean(&s);
    for l in layers {
        assert!(v.contains(&format!("{l}: Layer already exists")), "{v}");
    }
    assert!(!v.contains("Preparing"), "{v}");
    assert!(!v.contains("Waiting"), "{v}");
    assert!(v.contains("digest: sha256:e0271b89"), "{v}");
    // One line per layer, in the order the terminal showed them.
    let at: Vec<usize> = layers.iter().map(|l| v.find(l).unwrap()).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{v}");
}

/// A status table whose cells are icons: each cell says what its image
/// shows (its `alt`, else its file's stem without version numbers), the
/// header row is followed by its separator, and rows follow each other
/// without blank lines.
#[test]
fn html_table_cells_of_images_say_what_they_show() {
    let mut rows = String::new();
    for k in 0..6 {
        let (a, b) = if k % 2 == 0 {
            ("finished", "not-finished")
        } else {
            ("not-finished", "finished")
        };
        rows.push_str(&format!(
            "<tr>\n  <td>Task {k}</td>\n  <td><img src=\"https://cdn.example.com/img/fff-277-{a}-2.png\" width=\"20px\"></td>\n  <td><img src=\"/img/x.png\" alt=\"{b}\"></td>\n</tr>\n"
        ));
    }
    let story = "The team has been busy with the interface this month. ".repeat(12);
    let page = format!(
        "<html><head><title>Status</title></head><body><main><h1>Status</h1><p>{story}</p>\n<table>\n<tr><td></td><td>Draft</td><td>Review</td></tr>\n{rows}</table><p>{story}</p></main></body></html>\n"
    );
    let v = lean(&page);
    assert!(
        v.contains("| | Draft | Review |\n| --- | --- | --- |\n| Task 0 | fff-finished | not-finished |\n| Task 1 | fff-not-finished | finished |\n"),
        "{v}"
    );
}

/// An index page: the list of the site's pages sits in a `nav` (a
/// chrome element), the `main` holds one line.
fn index_page() -> String {
    let mut links = String::new();
    for k in 0..40 {
        links.push_str(&format!(
            "<li><a href=\"/docs/ch{k}.html\">Chapter {k}: configuring subsystem {k}</a></li>\n"
        ));
    }
    format!(
        "<!doctype html><html><head><title>Manual index</title></head><body>\n<header><a href=\"/\">Home</a></header>\n<nav class=\"toc\"><h2>Contents</h2><ul>\n{links}</ul></nav>\n<main><h1>Manual</h1><p>Pick a chapter.</p></main>\n<footer>(c) 2024 Example</footer>\n</body></html>\n"
    )
}

#[test]
fn an_index_page_whose_links_sit_in_a_nav_is_its_links() {
    let page = index_page();
    let v = lean(&page);
    assert!(v.len() * 10 < page.len() * 6, "{v}");
    assert!(!v.contains("<li>"), "{v}");
    // Every page the index names, with the page's own line.
    for k in 0..40 {
        assert!(
            v.contains(&format!("- Chapter {k}: configuring subsystem {k}\n")),
            "{v}"
        );
    }
    assert!(v.contains("# Manual\n\nPick a chapter."), "{v}");
}

#[test]
fn a_contents_list_folds_only_when_it_repeats_the_outline() {
    let chatter = "It tells how the maintainers met and what they had for lunch on the day of the first release, and nothing in it is of use to a reader who wants to run the tool today.";
    let mut doc = String::from("# Handbook\n\n## Contents\n\n");
    for k in 0..8 {
        doc.push_str(&format!("- Part {k}: the workings of stage {k}\n"));
    }
    for k in 0..3 {
        doc.push_str(&format!(
            "\n## Notes {k}\n\nThe notes of day {k} come first. {chatter} {chatter}\n"
        ));
    }
    // Entries that name no heading: the book's parts, kept.
    let v = lean(&doc);
    for k in 0..8 {
        assert!(
            v.contains(&format!("- Part {k}: the workings of stage {k}")),
            "{v}"
        );
    }
    // The same list when its entries are the headings below: folded.
    for k in 0..8 {
        doc.push_str(&format!(
            "\n## Part {k}: the workings of stage {k}\n\nStage {k} runs first. {chatter}\n"
        ));
    }
    let v = lean(&doc);
    assert!(
        v.contains("## Contents\n\n\u{2026} 8 lines elided (caveman): table of contents \u{2026}"),
        "{v}"
    );
    assert!(v.contains("## Part 7: the workings of stage 7"), "{v}");
}

/// A changelog in the shape `regex` and `errno` keep: setext version
/// headings, each item a link to its issue and a line saying what it
/// fixed.
fn changelog(versions: usize) -> String {
    let mut doc = String::new();
    for v in (0..versions).rev() {
        let title = format!("1.{v}.0 (2024-01-{:02})", v % 28 + 1);
        doc.push_str(&format!(
            "{title}\n{}\nBug fixes:\n\n",
            "=".repeat(title.len())
        ));
        for i in 0..6 {
            let n = v * 10 + i;
            doc.push_str(&format!(
                "* [#{n}](https://github.com/example-org/example-project/issues/{n}):\nFix item {n} of the parser.\n"
            ));
        }
        doc.push_str("\n\n");
    }
    doc
}

#[test]
fn a_long_changelog_folds_its_link_targets_a_short_one_stays_whole() {
    let long = changelog(80);
    assert!(long.len() > 40_000);
    let v = lean(&long);
    assert!(v.len() * 10 < long.len() * 7, "{v}");
    for ver in 0..80 {
        let heading = format!("1.{ver}.0 (2024-01-");
        assert!(v.lines().any(|l| l.starts_with(&heading)), "{ver}: {v}");
        for i in 0..6 {
            let n = ver * 10 + i;
            assert!(
                v.contains(&format!(
                    "* [#{n}](\u{2026}):\nFix item {n} of the parser.\n"
                )),
                "{v}"
            );
        }
    }
    assert!(
        v.contains("\u{2026} caveman: 480 link targets shown as (\u{2026}) \u{2026}"),
        "{v}"
    );
    // A short one saves as much but is read whole.
    let short = changelog(8);
    assert_eq!(lean(&short), short);
}
