//! Lean code skeletons (issue 39's code review): doc comments cut only
//! where a sentence ends and keep the sentences that state rules; cgo
//! preambles and directives stay; a package guide keeps its headings and
//! each paragraph's first sentence; examples and one test stay whole;
//! short bodies, small files and views that save little are not cut;
//! a generated file's repeated banner is kept once with its count. Each
//! payload is rebuilt here from the shapes real Go and Python files have.

use crate::util::TestCommand;

fn lean(input: &str) -> String {
    let tc = TestCommand::new();
    let r = tc.run(&["compress", "--profile", "lean"], input.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr_str());
    String::from_utf8(r.stdout).expect("UTF-8 view")
}

/// `n` Go functions with bodies of twelve lines: enough for a skeleton
/// to be worth it.
fn go_bodies(n: usize) -> String {
    let mut s = String::new();
    for k in 0..n {
        s.push_str(&format!(
            "\n// Step{k} runs step {k}.\nfunc Step{k}(x int) int {{\n"
        ));
        for j in 0..12 {
            s.push_str(&format!("\tx = x*{j} + {k} // mix in round {j}\n"));
        }
        s.push_str("\treturn x\n}\n");
    }
    s
}

/// A long table literal: compat's view keeps it, lean's elides it, so
/// the lean view has room under compat's size (issue 40: a lean Go view
/// is never larger than compat's) for what it keeps beyond compat.
/// About 50 tokens a line, at least 13 lines (a shorter one stays).
fn go_room(lines: usize) -> String {
    let mut s = String::from("\nvar table = [][]int{\n");
    for k in 0..lines.max(13) {
        let row: Vec<String> = (1..=16)
            .map(|j| (k * 7919 + j * 104_729).to_string())
            .collect();
        s.push_str(&format!("\t{{{}}},\n", row.join(", ")));
    }
    s.push_str("}\n");
    s
}

/// Lean's view of `src` is no larger than compat's, or else it is the
/// barest (every body `{}`, no doc comment) and larger only by the lines
/// lean adds: its first line (what was cut) and its last (the handle).
fn assert_within_compat(src: &str) {
    let v = lean(src);
    let (l, c) = (view_tokens(&v), view_tokens(&compat(src)));
    if l <= c {
        return;
    }
    let lines: Vec<&str> = v.lines().collect();
    let added = view_tokens(lines[0]) + view_tokens(lines[lines.len() - 1]);
    assert!(
        lines[0].contains(" now {} ("),
        "lean {l} > compat {c}:\n{v}"
    );
    assert!(l <= c + added, "lean {l} > compat {c} + {added}:\n{v}");
}

/// The text of the `//` comment lines just before `decl`, joined.
fn doc_before(view: &str, decl: &str) -> String {
    let lines: Vec<&str> = view.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with(decl))
        .unwrap_or_else(|| panic!("{decl} missing:\n{view}"));
    let mut doc: Vec<&str> = lines[..at]
        .iter()
        .rev()
        .take_while(|l| l.starts_with("//"))
        .map(|l| l.trim_start_matches('/').trim())
        .collect();
    doc.reverse();
    doc.join(" ")
}

#[test]
fn a_doc_comment_is_cut_where_a_sentence_ends_and_keeps_its_rules() {
    let src = format!(
        "package timer\n\n\
         // WithTimeout returns a copy of the parent whose deadline is set\n\
         // to now plus the given duration. The clock starts at once and\n\
         // runs on its own schedule from then on, as the other timers do.\n\
         // A zero or negative value means\n\
         // there will be no timeout. The returned [CancelFunc] does\n\
         // not set the cause. Long paragraphs of background follow here\n\
         // and they go on for a while about history and design choices.\n\
         func WithTimeout(d int) int {{\n{}\treturn d\n}}\n{}{}",
        "\td++\n".repeat(8),
        go_bodies(30),
        go_room(50)
    );
    let v = lean(&src);
    let doc = doc_before(&v, "func WithTimeout");
    assert!(
        doc.starts_with(
            "WithTimeout returns a copy of the parent whose deadline is set to now plus the given duration."
        ),
        "{doc}"
    );
    assert!(
        doc.contains("A zero or negative value means there will be no timeout."),
        "{doc}"
    );
    assert!(
        doc.contains("The returned [CancelFunc] does not set the cause."),
        "{doc}"
    );
    assert!(!doc.contains("history"), "{doc}");
    // Every cut is marked where it is.
    assert!(doc.contains("\u{2026}"), "{doc}");
    assert!(v.contains("cut to their first and rule sentences"), "{v}");
    assert!(!v.contains("cut to their first sentence\n"), "{v}");
}

#[test]
fn a_python_docstring_is_cut_where_its_first_sentence_ends() {
    let mut src = String::from("import os\n\n\ndef frob(x):\n    \"\"\"Return the frobnicated value of x\n    with care. Raises ValueError if x is negative.\n    Some history of the frobnication algorithm follows\n    over several lines of text.\n    \"\"\"\n");
    src.push_str(&"    x = x + 1\n".repeat(8));
    src.push_str("    return x\n");
    for k in 0..40 {
        src.push_str(&format!("\n\ndef step{k}(x):\n"));
        for j in 0..10 {
            src.push_str(&format!("    x = x * {j} + {k}  # round {j}\n"));
        }
        src.push_str("    return x\n");
    }
    let v = lean(&src);
    let flat = v.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "\"\"\"Return the frobnicated value of x with care. Raises ValueError if x is negative. \u{2026} \"\"\""
        ),
        "{v}"
    );
    assert!(!v.contains("history of the"), "{v}");
}

#[test]
fn a_cgo_preamble_and_directives_stay_whole() {
    let src = format!(
        "// Copyright 2011 The Authors. All rights reserved.\n\
         // Use of this source code is governed by a license\n\
         // that can be found in the LICENSE file.\n\n\
         package user\n\n\
         /*\n#cgo CFLAGS: -fno-stack-protector\n#include <unistd.h>\n#include <pwd.h>\n\n\
         static int mylookup(int uid, char *buf, size_t n, int *found) {{\n\
         \tstruct passwd pwd;\n\tstruct passwd *result;\n\tmemset(&pwd, 0, sizeof(pwd));\n\
         \t*found = getpwuid_r(uid, &pwd, buf, n, &result) == 0;\n\treturn 0;\n}}\n*/\n\
         import \"C\"\n\n\
         // coroswitch switches to the coroutine. It is implemented in the\n\
         // runtime and linked here by name. More words about it follow\n\
         // over a line or two that an agent rarely needs.\n\
         //go:linkname coroswitch runtime.coroswitch\n\
         //go:noescape\n\
         func coroswitch(c *int)\n\n\
         // Exported is called from C. It keeps its export line.\n\
         // More text here about the callback and where it runs.\n\
         // And a third line.\n\
         //export Exported\n\
         func Exported() {{}}\n{}{}",
        go_bodies(30),
        go_room(50)
    );
    let v = lean(&src);
    for l in [
        "#cgo CFLAGS: -fno-stack-protector",
        "#include <pwd.h>",
        "\t*found = getpwuid_r(uid, &pwd, buf, n, &result) == 0;",
        "//go:linkname coroswitch runtime.coroswitch\n//go:noescape\nfunc coroswitch(c *int)",
        "//export Exported\nfunc Exported() {}",
    ] {
        assert!(v.contains(l), "{l}:\n{v}");
    }
}

#[test]
fn a_package_guide_keeps_its_headings_and_first_sentences() {
    let mut doc = String::from("/*\nPackage seq provides iterators over sequences.\n");
    for h in ["Iterators", "Naming", "Pulling Values", "Mutation"] {
        doc.push_str(&format!("\n# {h}\n\n"));
        for p in 0..3 {
            doc.push_str(&format!(
                "The {h} part {p} opens with this sentence. It then goes on\n\
                 with details of {h} that take a few more lines to tell,\n\
                 and some more words here so the paragraph is long enough.\n\n"
            ));
        }
        doc.push_str("\tfor v := range seq {\n\t\tfmt.Println(v)\n\t}\n");
    }
    doc.push_str("*/\npackage seq\n");
    let src = format!("{doc}{}{}", go_bodies(4), go_room(40));
    let v = lean(&src);
    for h in ["Iterators", "Naming", "Pulling Values", "Mutation"] {
        assert!(v.contains(&format!("\n# {h}\n")), "{h}:\n{v}");
        for p in 0..3 {
            assert!(
                v.contains(&format!("The {h} part {p} opens with this sentence.")),
                "{h} {p}:\n{v}"
            );
        }
    }
    assert!(
        v.contains("\tfor v := range seq {\n\t\tfmt.Println(v)\n\t}\n"),
        "{v}"
    );
    assert!(!v.contains("take a few more lines"), "{v}");
    assert!(v.contains("long comments cut to headings"), "{v}");
}

#[test]
fn examples_keep_their_bodies_and_output() {
    let mut src = String::from("package sort_test\n\nimport (\n\t\"fmt\"\n\t\"sort\"\n)\n");
    for k in 0..30 {
        src.push_str(&format!(
            "\nfunc ExampleInts{k}() {{\n\ts := []int{{5, 2, 6, 3, 1, 4, {k}}}\n\tsort.Ints(s)\n\
             \tfmt.Println(s)\n\tfmt.Println(len(s))\n\tfmt.Println(cap(s))\n\
             \t// Output:\n\t// [1 2 3 4 5 6 {k}]\n\t// 7\n\t// 7\n}}\n"
        ));
    }
    src.push_str(&go_bodies(20));
    src.push_str(&go_room(60));
    let v = lean(&src);
    assert!(v.contains("lines elided"), "{v}");
    for k in 0..30 {
        assert!(
            v.contains(&format!("\tsort.Ints(s)\n\tfmt.Println(s)\n\tfmt.Println(len(s))\n\tfmt.Println(cap(s))\n\t// Output:\n\t// [1 2 3 4 5 6 {k}]\n\t// 7\n\t// 7\n}}")),
            "{k}:\n{v}"
        );
    }
}

#[test]
fn a_test_file_keeps_one_test_whole_and_the_head_of_its_tables() {
    let mut src = String::from(
        "package strconv_test\n\nimport (\n\t. \"strconv\"\n\t\"testing\"\n)\n\n\
         type quoteTest struct {\n\tin  string\n\tout string\n}\n\nvar quotetests = []quoteTest{\n",
    );
    for k in 0..80 {
        src.push_str(&format!("\t{{\"in{k}\", `\"out{k}\"`}},\n"));
    }
    src.push_str("}\n");
    for k in 0..20 {
        src.push_str(&format!(
            "\nfunc TestQuote{k}(t *testing.T) {{\n\tfor _, tt := range quotetests {{\n\
             \t\tif out := Quote(tt.in); out != tt.out {{\n\
             \t\t\tt.Errorf(\"Quote(%s) = %s, want %s\", tt.in, out, tt.out)\n\t\t}}\n\
             \t\tif {k} > 100 {{\n\t\t\tt.Fatal(\"unreachable\")\n\t\t}}\n\t}}\n}}\n"
        ));
    }
    src.push_str(&go_room(50));
    let v = lean(&src);
    // The first test, whole.
    assert!(v.contains("func TestQuote0(t *testing.T) {\n\tfor _, tt := range quotetests {\n\t\tif out := Quote(tt.in); out != tt.out {"), "{v}");
    assert!(
        v.contains("func TestQuote1(t *testing.T) {\n\t// \u{2026}"),
        "{v}"
    );
    // The table's first entries, and how many more there are.
    assert!(v.contains("\t{\"in0\", `\"out0\"`},\n"), "{v}");
    assert!(v.contains("\t{\"in14\", `\"out14\"`},\n"), "{v}");
    assert!(!v.contains("in79"), "{v}");
    assert!(
        v.contains(
            "\t{\"in15\", `\"out15\"`},\n\t// \u{2026} 64 more lines (64 more entries) elided\n}"
        ),
        "{v}"
    );
}

#[test]
fn a_small_test_file_is_read_whole() {
    let mut src = String::from("import pytest\n");
    for k in 0..12 {
        src.push_str(&format!(
            "\n\ndef test_x{k}():\n    got = {k} * 2\n    if got != {}:\n\
             \x20       pytest.fail(f\"got {{got}}\")\n    print(\"case {k} done\")\n    print(got)\n",
            k * 2
        ));
    }
    assert_eq!(lean(&src), src);
}

#[test]
fn a_small_go_test_file_is_cut_to_compat_s_size() {
    // Compat empties its bodies: lean may not be larger, so it is cut.
    let mut src = String::from("package x_test\n\nimport \"testing\"\n");
    for k in 0..12 {
        src.push_str(&format!(
            "\nfunc TestX{k}(t *testing.T) {{\n\tgot := {k} * 2\n\tif got != {} {{\n\
             \t\tt.Fatalf(\"got %d\", got)\n\t}}\n\tt.Log(\"case {k} done\")\n\tt.Log(got)\n}}\n",
            k * 2
        ));
    }
    let v = lean(&src);
    assert!(v.contains("func TestX11(t *testing.T) {}\n"), "{v}");
    assert_within_compat(&src);
}

#[test]
fn short_bodies_stay_and_a_view_that_saves_little_is_the_file() {
    // Bodies of four lines are not elided: the marker costs as much.
    let mut src = String::from("package small\n");
    for k in 0..60 {
        src.push_str(&format!(
            "\n// Get{k} returns field {k} of the record for the caller.\nfunc Get{k}(r *Rec) int {{\n\
             \tif r == nil {{\n\t\treturn -1\n\t}}\n\treturn r.f[{k}]\n}}\n"
        ));
    }
    src.push_str("\nfunc Long() int {\n");
    src.push_str(&"\tn++\n".repeat(12));
    src.push_str("\treturn n\n}\n");
    // With room under compat's size, the short bodies stay.
    let roomy = format!("{src}{}", go_room(60));
    let v = lean(&roomy);
    assert!(
        v.contains(
            "func Get7(r *Rec) int {\n\tif r == nil {\n\t\treturn -1\n\t}\n\treturn r.f[7]\n}\n"
        ),
        "{v}"
    );
    assert!(
        v.contains("func Long() int {\n\t// \u{2026} 13 lines elided\n}"),
        "{v}"
    );
    // Without, the view is no larger than compat's: bodies go first.
    let v = lean(&src);
    assert!(v.contains("func Get7(r *Rec) int {}\n"), "{v}");
    assert_within_compat(&src);
}

#[test]
fn a_python_view_that_saves_little_is_the_file() {
    // One long body in a file of short ones saves too little: read whole.
    let mut src = String::from("import os\n");
    for k in 0..60 {
        src.push_str(&format!(
            "\n\ndef get{k}(r):\n    \"\"\"Return field {k} of the record.\"\"\"\n    if r is None:\n        return -1\n    return r.f[{k}]\n"
        ));
    }
    src.push_str("\n\ndef long(n):\n");
    src.push_str(&"    n += 1\n".repeat(12));
    src.push_str("    return n\n");
    assert_eq!(lean(&src), src);
}

#[test]
fn a_repeated_banner_is_kept_once_with_its_count() {
    let banner = "// THIS FILE IS GENERATED BY THE COMMAND AT THE TOP; DO NOT EDIT";
    let mut src =
        String::from("// mksyscall.pl linux\n// Code generated; DO NOT EDIT.\n\npackage syscall\n");
    for k in 0..40 {
        src.push_str(&format!(
            "\n{banner}\n\nfunc call{k}(fd int) (err error) {{\n\tvar p *byte\n\tp, err = conv(fd)\n\
             \tif err != nil {{\n\t\treturn\n\t}}\n\t_, _, e1 := Syscall({k}, uintptr(fd), 0, 0)\n\
             \tif e1 != 0 {{\n\t\terr = errnoErr(e1)\n\t}}\n\treturn\n}}\n"
        ));
    }
    src.push_str(&go_room(75));
    let v = lean(&src);
    assert_eq!(v.matches(banner).count(), 1, "{v}");
    assert!(
        v.contains(&format!(
            "{banner} (caveman: 40 times in this file; the 39 later copies dropped)"
        )),
        "{v}"
    );
    for k in 0..40 {
        assert!(
            v.contains(&format!("func call{k}(fd int) (err error) {{")),
            "{k}"
        );
    }
    assert!(v.contains("39 copies of repeated comments dropped"), "{v}");
}

#[test]
fn a_cut_comment_keeps_the_marks_of_its_text_lines() {
    // The line after the first is a blank `//`: later lines still start
    // with `// `, as the text lines of the comment did.
    let src = format!(
        "package exec\n\ntype Cmd struct {{\n\
         \t// Stdin specifies the process's standard input.\n\
         \t//\n\
         \t// If Stdin is nil, the process reads from the null device.\n\
         \t// Some background on pipes follows here and it goes on.\n\
         \t// And on, over a few more lines of text about copying.\n\
         \tStdin int\n}}\n{}{}",
        go_bodies(30),
        go_room(50)
    );
    let v = lean(&src);
    assert!(
        v.contains(
            "\t// Stdin specifies the process's standard input.\n\t//\n\t// If Stdin is nil, the process reads from the null device. \u{2026}\n\tStdin int"
        ),
        "{v}"
    );
}

/// The o200k tokens of `text`, as the eval counts a view: the report's
/// `tokens_before` of compressing it.
fn view_tokens(text: &str) -> u64 {
    let tc = TestCommand::new();
    let r = tc.run(&["compress", "--profile", "compat"], text.as_bytes());
    r.report()["tokens_before"].as_u64().unwrap()
}

/// Compat's view of `src` (its stdout: compat adds no retrieve line).
fn compat(src: &str) -> String {
    let tc = TestCommand::new();
    let r = tc.run(&["compress", "--profile", "compat"], src.as_bytes());
    String::from_utf8(r.stdout).expect("UTF-8 view")
}

#[test]
fn a_go_view_is_never_larger_than_compat_s() {
    // Issue 40 rule 8. Doc comments, trailing comments and four-line
    // bodies lean keeps and compat drops: past compat's size the skeleton
    // drops them too, and says so in its first line.
    let mut doc_heavy = String::from(
        "// Copyright 2011 The Authors. All rights reserved.\n\
         // Use of this source code is governed by a license.\n\n\
         package list\n\n\
         // Element is an element of a linked list.\n\
         type Element struct {\n\tnext, prev *Element // the links\n\tValue any // the value\n}\n\n\
         //go:noescape\nfunc raw(p *int)\n",
    );
    for k in 0..40 {
        doc_heavy.push_str(&format!(
            "\n// Get{k} returns field {k} of the record for the caller.\n\
             // It returns -1 when the record is nil, as the other getters do.\n\
             // Callers must not modify the record while it runs.\n\
             func Get{k}(r *Rec) int {{\n\tif r == nil {{\n\t\treturn -1\n\t}}\n\treturn r.f[{k}]\n}}\n"
        ));
    }
    doc_heavy.push_str(&go_bodies(10));
    let v = lean(&doc_heavy);
    assert!(v.starts_with("// caveman: 50 bodies now {} ("), "{v}");
    assert!(v.contains("func Get7(r *Rec) int {}\n"), "{v}");
    assert!(v.contains("\tnext, prev *Element\n"), "{v}");
    // Directives stay: the compiler reads them.
    assert!(v.contains("//go:noescape\nfunc raw(p *int)\n"), "{v}");
    assert!(!v.contains("Callers must not"), "{v}");
    assert!(!v.contains("Copyright"), "{v}");
    for src in [doc_heavy, go_bodies(30), go_bodies(3)] {
        assert_within_compat(&src);
    }
}

#[test]
fn a_go_view_keeps_exported_docs_first_sentences_when_they_fit() {
    // Compat keeps a long literal that lean elides: room for the first
    // sentence of each exported declaration's doc, not for the rest.
    let mut src = String::from(
        "// Package list implements a list. It is doubly linked.\n\
         // More about the package follows here.\npackage list\n",
    );
    for k in 0..40 {
        src.push_str(&format!(
            "\n// Get{k} returns field {k} of the record for the caller.\n\
             // It returns -1 when the record is nil, as the other getters do.\n\
             // Callers must not modify the record while it runs.\n\
             func Get{k}(r *Rec) int {{\n\tif r == nil {{\n\t\treturn -1\n\t}}\n\treturn r.f[{k}]\n}}\n\n\
             // get{k} is the unexported helper of Get{k}.\n\
             // It does the same work.\n\
             func get{k}(r *Rec) int {{\n\treturn r.f[{k}]\n}}\n"
        ));
    }
    src.push_str(&go_room(15));
    let v = lean(&src);
    assert!(
        v.contains("// Package list implements a list.\npackage list\n"),
        "{v}"
    );
    assert!(
        v.contains(
            "\n// Get7 returns field 7 of the record for the caller.\nfunc Get7(r *Rec) int {}\n"
        ),
        "{v}"
    );
    assert!(v.contains("\n\nfunc get7(r *Rec) int {}\n"), "{v}");
    assert!(!v.contains("Callers must not"), "{v}");
    assert!(v.contains(" 41 docs cut to their first sentence, "), "{v}");
    assert!(view_tokens(&v) <= view_tokens(&compat(&src)), "{v}");
}

#[test]
fn no_lean_code_view_is_larger_than_compat_s_in_any_language() {
    // Payloads of several languages, with doc comments, short and long
    // bodies and a literal: compat cuts only Go, and lean never spends
    // more than compat's view does.
    let body = |open: &str, line: &str, close: &str, n: usize| {
        format!("{open}\n{}{close}\n", line.repeat(n))
    };
    let mut payloads = Vec::new();
    for n in [2, 6, 14] {
        let mut go = String::from("// Package p does things.\npackage p\n");
        let mut py = String::from("import os\n");
        let mut rs = String::from("//! A crate.\nuse std::io;\n");
        let mut js = String::from("import fs from 'fs';\n");
        let mut c = String::from("#include <stdio.h>\n");
        for k in 0..25 {
            let doc = format!("returns {k} more than x. It is a step of the pipeline.");
            go.push_str(&format!("\n// Step{k} {doc}\nfunc Step{k}(x int) int "));
            go.push_str(&body("{", "\tx = x*3 + 1 // mix\n", "\treturn x\n}", n));
            py.push_str(&format!("\n\ndef step{k}(x):\n    \"\"\"{doc}\"\"\"\n"));
            py.push_str(&"    x = x * 3 + 1  # mix\n".repeat(n));
            py.push_str("    return x\n");
            rs.push_str(&format!("\n/// Step {doc}\npub fn step{k}(x: i64) -> i64 "));
            rs.push_str(&body("{", "    let x = x * 3 + 1; // mix\n", "    x\n}", n));
            js.push_str(&format!("\n/** Step {doc} */\nexport function step{k}(x) "));
            js.push_str(&body("{", "  x = x * 3 + 1; // mix\n", "  return x;\n}", n));
            c.push_str(&format!("\n/* Step {doc} */\nint step{k}(int x) "));
            c.push_str(&body(
                "{",
                "    x = x * 3 + 1; /* mix */\n",
                "    return x;\n}",
                n,
            ));
        }
        payloads.extend([go, py, rs, js, c]);
    }
    payloads.push(go_bodies(30));
    payloads.push(format!("package p\n{}", go_room(25)));
    for src in payloads {
        assert_within_compat(&src);
    }
}
