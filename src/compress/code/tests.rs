//! The lean skeleton's promises, per language: the view parses, keeps
//! every declaration the original's syntax tree has, and is smaller.

use super::skeleton::{declarations, skeleton, top_level_parts};
use crate::detect::Language;

/// A small file per language with a body long enough to elide.
fn sample(l: Language) -> &'static str {
    match l {
        Language::Go => "package main\n\nimport \"fmt\"\n\n// Greet says hello.\n// It is polite.\n// Very polite.\nfunc Greet(name string) string {\n\tx := 1\n\ty := 2\n\tz := x + y\n\tz++\n\tz--\n\treturn fmt.Sprint(name, z)\n}\n\ntype T struct {\n\tA int\n}\n",
        Language::Python => "import os\n\n\nclass A:\n    \"\"\"A thing.\"\"\"\n\n    def f(self, x: int) -> int:\n        \"\"\"Add one. More text here.\n\n        Details.\n        \"\"\"\n        y = x + 1\n        z = y * 2\n        return z\n\n\ndef g():\n    a = 1\n    b = 2\n    a += 1\n    b += 1\n    return a + b\n",
        Language::JavaScript => "const fs = require('fs');\n\nfunction read(p) {\n  const a = 1;\n  const b = 2;\n  a++;\n  b++;\n  return fs.readFileSync(p) + a + b;\n}\n\nclass C {\n  m(x) {\n    const y = x;\n    const z = y;\n    y++;\n    z++;\n    return z;\n  }\n}\n\nmodule.exports = { read, C };\n",
        Language::TypeScript => "export interface P {\n  x: number;\n}\n\nexport function len(p: P): number {\n  const a = p.x;\n  const b = a * 2;\n  a++;\n  b++;\n  return Math.hypot(a, b);\n}\n",
        Language::Tsx => "import React from 'react';\n\nexport function App(props: { n: number }) {\n  const a = props.n;\n  const b = a * 2;\n  a++;\n  b++;\n  return <div>{b}</div>;\n}\n",
        Language::Rust => "use std::io;\n\n/// A point.\npub struct P {\n    pub x: u8,\n}\n\nimpl P {\n    /// Makes one.\n    pub fn new() -> P {\n        let a = 1;\n        let b = 2;\n        a += 1;\n        b += 1;\n        P { x: a + b }\n    }\n}\n\nfn main() {\n    let p = P::new();\n    let q = p.x;\n    q += 1;\n    q -= 1;\n    println!(\"{}\", q);\n}\n",
        Language::Java => "package a;\n\nimport java.util.List;\n\npublic class A {\n    private int x;\n\n    public int f(int y) {\n        int a = y;\n        int b = a;\n        a++;\n        b++;\n        return a + b;\n    }\n}\n",
        Language::C => "#include <stdio.h>\n\nstruct p { int x; };\n\nint main(void) {\n    int a = 1;\n    int b = 2;\n    a++;\n    b++;\n    printf(\"%d\\n\", a + b);\n    return 0;\n}\n",
        Language::Cpp => "#include <vector>\n\nnamespace app {\nclass Box {\n public:\n  int get() const {\n    int a = 1;\n    int b = 2;\n    a++;\n    b++;\n    return a + b;\n  }\n};\n}  // namespace app\n",
        Language::CSharp => "using System;\n\nnamespace App\n{\n    public class A\n    {\n        public int X { get; set; }\n        public int F(int y)\n        {\n            var a = y;\n            var b = a;\n            a++;\n            b++;\n            return a + b;\n        }\n    }\n}\n",
        Language::Ruby => "require 'json'\n\nmodule Foo\n  class Bar\n    def baz(x)\n      a = x\n      b = a\n      a += 1\n      b += 1\n      a + b\n    end\n  end\nend\n",
        Language::Php => "<?php\nnamespace App;\n\nclass A {\n    public function f($x) {\n        $a = $x;\n        $b = $a;\n        $a++;\n        $b++;\n        return $a + $b;\n    }\n}\n",
        Language::Kotlin => "package app\n\ndata class P(val x: Int)\n\nfun main() {\n    val a = 1\n    val b = 2\n    println(a)\n    println(b)\n    println(a + b)\n}\n",
        Language::Swift => "import Foundation\n\nstruct P {\n    let x: Int\n}\n\nfunc f(p: P) -> Int {\n    let a = p.x\n    let b = a * 2\n    print(a)\n    print(b)\n    return a + b\n}\n",
        Language::Scala => "package app\n\nobject Main {\n  def f(x: Int): Int = {\n    val a = x\n    val b = a\n    println(a)\n    println(b)\n    a + b\n  }\n}\n",
        Language::Shell => "#!/bin/bash\nset -e\n\ngreet() {\n  local a=1\n  local b=2\n  echo $a\n  echo $b\n  echo \"$a $b\"\n}\n\ngreet\n",
    }
}

#[test]
fn every_language_keeps_its_declarations_and_parses() {
    for l in Language::ALL {
        let src = sample(l);
        let (out, _) = skeleton(src, l, "", false).unwrap_or_else(|d| panic!("{l}: {}", d.0));
        assert!(out.len() < src.len() + 120, "{l}: {out}");
        assert!(out.contains("lines elided"), "{l}: {out}");
        assert_eq!(declarations(src, l), declarations(&out, l), "{l}:\n{out}");
    }
}

#[test]
fn the_query_keeps_matching_bodies() {
    let src = sample(Language::Python);
    let (out, _) = skeleton(src, Language::Python, "add one", false).unwrap();
    assert!(out.contains("z = y * 2"), "{out}");
    assert!(!out.contains("b = 2"), "{out}");
}

#[test]
fn a_file_that_does_not_parse_is_not_cut() {
    assert!(skeleton("def f(:\n  pass\n", Language::Python, "", false).is_err());
}

#[test]
fn a_large_source_is_read_in_parts_and_keeps_every_signature() {
    // Over 1 MiB of Go: parsed as parts of about 512 KiB split at top-level
    // starts (one tree at a time per core, not one of the whole file).
    let mut src = String::from("package big\n\nimport \"fmt\"\n\n");
    let mut n = 0;
    while src.len() < 5 << 20 {
        src.push_str(&format!(
            "// F{n} prints.\nfunc F{n}(x int) int {{\n\ta := x + {n}\n\ta++\n\tb := a * 2\n\tfmt.Println(a, b)\n\treturn b\n}}\n\n"
        ));
        n += 1;
    }
    // A raw string with a blank line and a column-0 word: a part split
    // inside it does not parse on its own and stays as it is.
    src.push_str("var doc = `\n\nfunc inside() {\n}\n`\n");
    let (out, trace) = skeleton(&src, Language::Go, "", false).unwrap();
    assert!(
        out.len() < src.len() * 3 / 4,
        "{} of {}",
        out.len(),
        src.len()
    );
    assert_eq!(trace.dropped, n);
    for k in [0, n / 2, n - 1] {
        assert!(out.contains(&format!("func F{k}(x int) int {{")), "F{k}");
    }
    assert!(!out.contains("b := a * 2"));
    assert!(out.ends_with("var doc = `\n\nfunc inside() {\n}\n`\n"));
}

#[test]
fn parts_are_bounded_whatever_the_source_looks_like() {
    // No blank line anywhere (generated C), one unbroken statement list,
    // and one line of minified code: no part passes 1 MiB but by a line.
    let mut c = String::new();
    let mut n = 0;
    while c.len() < 9 << 20 {
        c.push_str(&format!(
            "static int f{n}(int x) {{\n    int a = x + {n};\n    int b = a * 2;\n    a++;\n    b++;\n    return a + b;\n}}\n"
        ));
        n += 1;
    }
    let mut body = String::from("void all(void) {\n");
    while body.len() < 9 << 20 {
        body.push_str("    counter += step * 3;\n");
    }
    body.push_str("}\n");
    let minified = "var a=1;".repeat(1 << 20) + "\nfunction f(){return 1}\n";
    for src in [&c, &body, &minified] {
        let parts = top_level_parts(src);
        assert_eq!(parts.first().unwrap().start, 0);
        assert_eq!(parts.last().unwrap().end, src.len());
        for w in parts.windows(2) {
            assert_eq!(w[0].end, w[1].start);
        }
        let longest_line = src.split_inclusive('\n').map(str::len).max().unwrap();
        for p in &parts {
            assert!(p.len() <= (1 << 20) + longest_line, "{} bytes", p.len());
        }
    }
    // The C without blank lines still splits where a function starts.
    for p in top_level_parts(&c).iter().skip(1) {
        assert!(
            c[p.clone()].starts_with("static int f"),
            "{}",
            &c[p.start..p.start + 20]
        );
    }
    let (out, trace) = skeleton(&c, Language::C, "", true).unwrap();
    assert!(out.len() < c.len(), "{} of {}", out.len(), c.len());
    assert!(trace.dropped > n / 2, "{} of {n}", trace.dropped);
}

#[test]
fn rust_doc_comments_are_cut_where_a_sentence_ends() {
    // tree-sitter-rust's `///` nodes hold their line break: the run of
    // them is still one doc comment.
    let src = "/// Parses the header of a frame from the\n/// bytes given. The header is read in\n/// network order, as the wire format says.\n/// Panics if the slice is empty.\n/// More history of the format follows here.\npub fn parse(b: &[u8]) -> u32 {\n    let a = b[0] as u32;\n    let c = a * 2;\n    let d = c + 1;\n    let e = d * 3;\n    e\n}\n";
    let (out, _) = skeleton(src, Language::Rust, "", false).unwrap();
    assert!(
        out.contains(
            "/// Parses the header of a frame from the bytes given. \u{2026}\n/// Panics if the slice is empty. \u{2026}\npub fn parse"
        ),
        "{out}"
    );
}

#[test]
fn a_header_without_bodies_names_only_what_was_cut() {
    let mut src = String::from("package tables\n\nvar Table = []int{\n");
    for k in 0..40 {
        src.push_str(&format!("\t{k},\n"));
    }
    src.push_str("}\n");
    let (out, _) = skeleton(&src, Language::Go, "", false).unwrap();
    assert!(
        out.starts_with("// caveman: Go skeleton: 1 long literals elided\n"),
        "{out}"
    );
}

#[test]
fn a_ceiling_takes_the_richest_view_within_it() {
    use super::skeleton::skeleton_within;
    let src = "package p\n\n// F adds.\n// It adds more.\n// And more.\nfunc F(x int) int { // adds\n\ty := x\n\ty++\n\treturn y\n}\n\n// g adds five.\n// It adds more.\nfunc g(x int) int {\n\tx++\n\tx++\n\tx++\n\tx++\n\tx++\n\treturn x\n}\n\n//go:noinline\nfunc H() int { return 1 }\n";
    let count = |v: &str| crate::tokens::count(v.as_bytes());
    // Room for everything: the view of `skeleton`.
    let (full, _) = skeleton(src, Language::Go, "", false).unwrap();
    let (roomy, _) = skeleton_within(src, Language::Go, false, 10_000).unwrap();
    assert_eq!(roomy, full);
    assert!(full.contains("// It adds more."), "{full}");
    // Less room: every body `{}`, the exported declaration's doc cut to
    // its first sentence, the unexported one's dropped, the directive kept.
    let docs = "// caveman: 3 bodies now {} (9 lines), \
                1 docs cut to their first sentence, 1 comments dropped (2 lines)\n\
                package p\n\n// F adds.\nfunc F(x int) int {}\n\nfunc g(x int) int {}\n\n\
                //go:noinline\nfunc H() int {}\n";
    assert!(count(docs) < count(&full));
    let (v, _) = skeleton_within(src, Language::Go, false, count(docs)).unwrap();
    assert_eq!(v, docs);
    // No room: no doc comment either, the header counting what went.
    let (bare, _) = skeleton_within(src, Language::Go, false, 1).unwrap();
    assert_eq!(
        bare,
        "// caveman: 3 bodies now {} (9 lines), 2 comments dropped (5 lines)\n\
         package p\n\nfunc F(x int) int {}\n\nfunc g(x int) int {}\n\n\
         //go:noinline\nfunc H() int {}\n"
    );
}

#[test]
fn a_compact_view_knows_which_declarations_are_documented() {
    use super::comments::{documents_for_test as d, Docs};
    for (line, docs, want) in [
        ("package p", Docs::TopLevel, true),
        ("func F() {", Docs::TopLevel, true),
        ("func f() {", Docs::Exported, false),
        ("func (r *rec) Get() int {", Docs::TopLevel, true),
        ("func (r *Rec) get() int {", Docs::Exported, false),
        ("type Rec struct {", Docs::TopLevel, true),
        ("var (", Docs::TopLevel, true),
        ("\tName string", Docs::Exported, true),
        ("\tName string", Docs::TopLevel, false),
        ("\tname string", Docs::Exported, false),
        ("", Docs::Exported, false),
        ("func F() {", Docs::None, false),
    ] {
        assert_eq!(d(line, docs, true), want, "{line:?}");
    }
}

#[test]
fn a_compact_view_cuts_the_bodies_of_cgos_c_preamble() {
    use super::skeleton::skeleton_within;
    let src = "package user\n\n/*\n#cgo CFLAGS: -fno-stack-protector\n#include <pwd.h>\n\n\
               struct pair {\n\tint a;\n\tint b;\n};\n\n\
               static int twice(int x) {\n\tint y = x;\n\ty += x;\n\treturn y;\n}\n\n\
               static int thrice(int x)\n{\n\treturn 3 * x;\n}\n*/\nimport \"C\"\n\n\
               // Twice doubles.\nfunc Twice(x int) int {\n\ty := C.twice(C.int(x))\n\treturn int(y)\n}\n";
    let (bare, _) = skeleton_within(src, Language::Go, false, 1).unwrap();
    // The flags, includes, the struct and each C signature stay; each C
    // body is `{}` like the Go one, and counted with them.
    assert_eq!(
        bare,
        "// caveman: 3 bodies now {} (6 lines), 1 comments dropped (1 lines)\n\
         package user\n\n/*\n#cgo CFLAGS: -fno-stack-protector\n#include <pwd.h>\n\n\
         struct pair {\n\tint a;\n\tint b;\n};\n\n\
         static int twice(int x) {}\n\n\
         static int thrice(int x)\n{}\n*/\nimport \"C\"\n\nfunc Twice(x int) int {}\n"
    );
}
