//! The code compressor's layout facts (spec/code.md §4–5), each checked
//! on the exact bytes gofmt gives.

use super::{empty_bodies, format, Skip};

fn reduce(src: &str) -> String {
    String::from_utf8(empty_bodies(src.as_bytes()).expect("reduces")).unwrap()
}

fn fmt(src: &str) -> String {
    String::from_utf8(format(src.as_bytes()).expect("formats")).unwrap()
}

#[test]
fn spec_example() {
    let src = "package main\n\nimport \"fmt\"\n\n// Add adds.\nfunc Add(a, b int) int {\n\t// inner comment\n\tc := a + b\n\treturn c\n}\n\ntype T struct{ X int }\n\nfunc (t *T) M() {\n\tfmt.Println(t.X) // trailing\n}\n\nfunc main() {\n\tfmt.Println(Add(1, 2))\n}\n";
    assert_eq!(
        reduce(src),
        "package main\n\nimport \"fmt\"\n\nfunc Add(a, b int) int {\n\n}\n\ntype T struct{ X int }\n\nfunc (t *T) M() {\n\n}\n\nfunc main() {\n\n}\n"
    );
}

#[test]
fn emptied_body_shapes() {
    assert_eq!(
        reduce("package p\nfunc one() int { return 1 }\n"),
        "package p\n\nfunc one() int {}\n"
    );
    assert_eq!(
        reduce("package p\nfunc two() int {\n\treturn 2 }\n"),
        "package p\n\nfunc two() int {\n}\n"
    );
    assert_eq!(
        reduce("package p\nfunc multi(\n\ta int,\n\tb int,\n) int { return a + b }\n"),
        "package p\n\nfunc multi(\n\ta int,\n\tb int,\n) int {\n}\n"
    );
    assert_eq!(
        reduce("package p\nfunc f() {\n\tx()\n\ty()\n\tz()\n}\nfunc empty() {}\n"),
        "package p\n\nfunc f() {\n\n}\nfunc empty() {}\n"
    );
}

#[test]
fn header_limit_is_99_bytes() {
    for (len, want) in [(99, "{}"), (100, "{\n}"), (101, "{\n}")] {
        // `func ` + name + `() int` = len bytes.
        let name = "f".repeat(len - "func () int".len());
        let src = format!("package p\n\nfunc {name}() int {{ return 1 }}\n");
        let out = reduce(&src);
        assert!(
            out.ends_with(&format!("func {name}() int {want}\n")),
            "{len}: {out:?}"
        );
    }
}

#[test]
fn removed_comments_leave_one_blank_line_and_columns_realign() {
    assert_eq!(
        reduce("package p\nconst (\n\tA = 1 // one\n\t// standalone\n\tLongName = 0X1F\n\tC        = 1E5\n)\nfunc f() { g() }\n"),
        "package p\n\nconst (\n\tA = 1\n\n\tLongName = 0x1F\n\tC        = 1e5\n)\n\nfunc f() {}\n"
    );
    assert_eq!(
        reduce("package p\ntype T struct {\n\tA int // comment\n\t// standalone comment\n\tB    string\n\t/* block */ C float64\n}\nfunc f() { g() }\n"),
        "package p\n\ntype T struct {\n\tA int\n\n\tB string\n\tC float64\n}\n\nfunc f() {}\n"
    );
}

#[test]
fn imports_sorted_and_deduplicated() {
    assert_eq!(
        fmt("package p\n\nimport (\n\t\"strings\"\n\t\"fmt\"\n\t\"fmt\"\n)\n"),
        "package p\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n"
    );
    assert_eq!(
        fmt("package p\n\nimport (\n\t\"b\"\n\t\"a\"\n\n\t\"d\"\n\t\"c\"\n\n)\n"),
        "package p\n\nimport (\n\t\"a\"\n\t\"b\"\n\n\t\"c\"\n\t\"d\"\n)\n"
    );
}

#[test]
fn crlf_comes_back_lf() {
    let src = "package p\r\n\r\nvar s = `a\r\nb`\r\n\r\nfunc f() {\r\n\tg()\r\n}\r\n";
    assert_eq!(
        reduce(src),
        "package p\n\nvar s = `a\nb`\n\nfunc f() {\n\n}\n"
    );
}

#[test]
fn declines() {
    assert!(matches!(
        empty_bodies(b"package p\nfunc f( {\n}\n"),
        Err(Skip::Syntax(_))
    ));
    assert_eq!(
        empty_bodies(b"package p\n\nfunc f()\n\nfunc g() {}\n"),
        Err(Skip::NothingToEmpty)
    );
}

#[test]
fn function_literals_keep_their_bodies() {
    assert_eq!(
        reduce("package p\nvar f = func() int { return 1 }\nfunc g() { h() }\n"),
        "package p\n\nvar f = func() int { return 1 }\n\nfunc g() {}\n"
    );
}
